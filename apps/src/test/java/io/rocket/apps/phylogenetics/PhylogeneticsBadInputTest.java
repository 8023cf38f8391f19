package io.rocket.apps.phylogenetics;

import io.rocket.apps.Cli;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad proteomes and bad options: each bad file fails alone and is named; option errors are one line. */
class PhylogeneticsBadInputTest {

    @TempDir
    Path dir;

    @Test
    void run_badFilesAmongGoodOnes_exit3NamesEachAndBuildsTreeFromTheRest() throws IOException {
        Path data = dir.resolve("data");
        PhyloGenerator.Result good = PhyloGenerator.generate(data, 5, 0.5, 60, 2);
        Files.write(data.resolve("empty.faa"), new byte[0]);
        Files.write(data.resolve("junk.fasta"), new byte[] {'>', 'p', '\n', 'A', 'C', 0, 1, 2, (byte) 0xfe, '\n'});
        byte[] gz = Files.readAllBytes(good.proteomes().get(0));
        Files.write(data.resolve("truncated.faa.gz"), Arrays.copyOf(gz, gz.length / 2));
        Files.writeString(data.resolve("headers.fa"), ">p1 nothing\n>p2 nothing either\n", StandardCharsets.US_ASCII);
        Path matrix = dir.resolve("d.phy");
        Path tree = dir.resolve("tree.nwk");
        Path errors = dir.resolve("errors.tsv");

        Cli.Result r = Cli.run("phylogenetics", data.toString(), "--matrix", matrix.toString(), "--tree",
                tree.toString(), "--errors", errors.toString(), "--host-cache-size", "4slots",
                "--device-cache-size", "3slots");

        assertThat(r.code()).as(r.both()).isEqualTo(3);
        assertThat(r.out()).contains("phylogenetics: 9 items, 10 pairs (26 errors)")
                .contains("empty.faa: empty file")
                .contains("junk.fasta: binary data, not FASTA text (byte 0x00")
                .contains("truncated.faa.gz: truncated gzip data")
                .contains("headers.fa: no protein residues")
                .contains("tree: 5 taxa, neighbour joining");
        assertThat(r.err()).contains("4 of 9 taxa left out of the matrix and tree")
                .contains("(empty): empty.faa: empty file").contains("(headers): headers.fa: no protein residues")
                .contains("(junk): junk.fasta: binary data").contains("(truncated): truncated.faa.gz: truncated");
        assertThat(NewickParser.parse(Files.readString(tree)).leafLabels())
                .containsExactlyInAnyOrder("taxon01", "taxon02", "taxon03", "taxon04", "taxon05");
        assertThat(Files.readAllLines(matrix)).hasSize(6).first().isEqualTo("5");
        assertThat(Files.readAllLines(errors)).hasSize(1 + 26);
    }

    /**
     * A proteome of one repeated residue has a composition vector of zeros (every K-string as frequent as its
     * background predicts): no direction, so its distances (1 − cosine)/2 are undefined. It fails alone, named, as a
     * bad file does, and the matrix and tree hold the others; no distance is made up for it.
     */
    @Test
    void run_everyVectorEntryZero_failsAloneAndTheTreeHoldsTheRest() throws IOException {
        Path data = dir.resolve("data");
        PhyloGenerator.generate(data, 4, 0.5, 20, 3);
        Files.writeString(data.resolve("poly.faa"), ">p1\nAAAAAAAAAAAA\n>p2\nAAAAAAA\n", StandardCharsets.US_ASCII);
        Path matrix = dir.resolve("d.phy");
        Path tree = dir.resolve("tree.nwk");

        Cli.Result r = Cli.run("phylogenetics", data.toString(), "--matrix", matrix.toString(), "--tree",
                tree.toString());

        assertThat(r.code()).as(r.both()).isEqualTo(3);
        assertThat(r.out()).as(r.both()).contains("poly.faa: every composition-vector entry is zero at K = 5: each"
                + " K-string occurs exactly as often as its Markov background predicts (as in a protein of one"
                + " repeated residue), so the distances to this proteome are undefined");
        assertThat(r.err()).as(r.both()).contains("1 of 5 taxa left out of the matrix and tree");
        assertThat(NewickParser.parse(Files.readString(tree)).leafLabels())
                .containsExactlyInAnyOrder("taxon01", "taxon02", "taxon03", "taxon04");
        assertThat(Files.readAllLines(matrix)).hasSize(5).first().isEqualTo("4");
    }

    @Test
    void run_vectorLargerThanSlot_everyItemFailsNamingMaxEntries() throws IOException {
        PhyloGenerator.generate(dir.resolve("data"), 3, 0.5, 20, 5);
        Path tree = dir.resolve("tree.nwk");

        Cli.Result r = Cli.run("phylogenetics", dir.resolve("data").toString(), "--max-entries", "100", "--tree",
                tree.toString());

        assertThat(r.code()).as(r.both()).isEqualTo(3);
        assertThat(r.out()).contains("taxon01.faa.gz: the composition vector (K = 5) needs")
                .contains("but a cache slot holds 808 (sized by --max-entries 100); rerun with --max-entries");
        assertThat(r.err()).contains("no matrix or tree written");
        assertThat(tree).doesNotExist();
    }

    @Test
    void run_proteomeLargerThanMaxResidues_failsNamingMaxResidues() throws IOException {
        PhyloGenerator.generate(dir.resolve("data"), 3, 0.5, 20, 5);

        Cli.Result r = Cli.run("phylogenetics", dir.resolve("data").toString(), "--max-residues", "1000");

        assertThat(r.code()).as(r.both()).isEqualTo(3);
        assertThat(r.out()).contains("taxon02.faa.gz: the parsed proteome needs")
                .contains("but the staging buffer holds 2008 (sized by --max-residues 1000); rerun with --max-residues");
    }

    @Test
    void badOptionsAndDirectories_oneLineErrors() throws IOException {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Files.writeString(empty.resolve("notes.txt"), "hello");
        Path twins = Files.createDirectories(dir.resolve("twins"));
        Files.writeString(twins.resolve("a.faa"), ">p\nACDEFGH\n");
        Files.writeString(twins.resolve("a.fasta"), ">p\nACDEFGH\n");

        assertError(Cli.run("phylogenetics", empty.toString(), "--k", "9"), 2, "--k must be between 3 and 7, got 9");
        assertError(Cli.run("phylogenetics", empty.toString()), 1, "no proteome files");
        assertError(Cli.run("phylogenetics", dir.resolve("missing").toString()), 2, "no such input directory");
        assertError(Cli.run("phylogenetics", twins.toString()), 1, "two files give the taxon name 'a'");
        assertError(Cli.run("phylogenetics", twins.toString(), "--device", "sim"), 2,
                "runs on --device cpu or cuda");
        assertError(Cli.run("phylogenetics", twins.toString(), "--method", "parsimony"), 2, "expected nj or upgma");
        assertError(Cli.run("generate"), 2, "missing data set");
        assertError(Cli.run("generate", "phylogenetics", "--out", dir.resolve("new").toString(), "--taxa", "1"), 2,
                "--taxa must be at least 2");
    }

    private static void assertError(Cli.Result r, int code, String message) {
        assertThat(r.code()).as(r.both()).isEqualTo(code);
        assertThat(r.err()).as(r.both()).contains(message).doesNotContain("\tat ");
        assertThat(r.err().strip().lines()).as(r.both()).hasSize(1);
    }

    @Test
    void treeCompare_differentTopologies_printsDistanceAndExitsZero() throws IOException {
        Path a = dir.resolve("a.nwk");
        Path b = dir.resolve("b.nwk");
        Path c = dir.resolve("c.nwk");
        Files.writeString(a, "((A,B),(C,D),E);\n");
        Files.writeString(b, "((A,C),(B,D),E);\n");
        Files.writeString(c, "((A,B),(C,F),E);\n");

        Cli.Result r = Cli.run("tree-compare", a.toString(), b.toString());
        assertThat(r.code()).as(r.both()).isZero();
        assertThat(r.out().strip())
                .isEqualTo("Robinson-Foulds distance: 4 (normalised 1.0000; maximum 4 for 5 leaves)");
        assertError(Cli.run("tree-compare", a.toString(), c.toString()), 1, "trees have different leaves");
        assertError(Cli.run("tree-compare", a.toString(), dir.resolve("none.nwk").toString()), 1, "cannot read");
        List<String> usage = Cli.run("tree-compare").err().lines().toList();
        assertThat(usage.get(0)).startsWith("rocket: Missing required parameters");
    }
}
