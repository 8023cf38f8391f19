package io.rocket.apps.phylogenetics;

import io.rocket.apps.Cli;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The phylogenetics command end to end through the launcher, on generated proteomes with a known tree: the tree it
 * writes is the true tree, and its distances are exactly those of the serial reference.
 */
class PhylogeneticsCommandTest {

    @TempDir
    Path dir;

    @Test
    void run_12TaxaDepth05_treeIsTheTrueTree() throws IOException {
        Path data = dir.resolve("data");
        Cli.Result gen = Cli.run("generate", "phylogenetics", "--out", data.toString(), "--taxa", "12", "--depth",
                "0.5", "--proteins", "300", "--seed", "1");
        assertThat(gen.code()).as(gen.both()).isZero();
        assertThat(gen.out()).contains("wrote 12 proteomes");
        Path tsv = dir.resolve("pairs.tsv");
        Path matrix = dir.resolve("d.phy");
        Path tree = dir.resolve("tree.nwk");

        Cli.Result r = Cli.run("phylogenetics", data.toString(), "--k", "5", "--output", tsv.toString(), "--matrix",
                matrix.toString(), "--tree", tree.toString(), "--host-cache-size", "6slots",
                "--device-cache-size", "4slots");

        assertThat(r.code()).as(r.both()).isZero();
        assertThat(r.out()).contains("phylogenetics: 12 items, 66 pairs (0 errors)")
                .contains("tree: 12 taxa, neighbour joining");
        assertThat(r.err()).contains("ignoring 1 entry that is not a proteome file: true-tree.nwk");
        List<String> lines = Files.readAllLines(tsv);
        assertThat(lines.get(0)).isEqualTo("i\tj\tleft\tright\tdistance");
        assertThat(lines).hasSize(67);
        assertThat(Files.readAllLines(matrix)).hasSize(13).first().isEqualTo("12");
        Cli.Result rf = Cli.run("tree-compare", tree.toString(), data.resolve("true-tree.nwk").toString());
        assertThat(rf.code()).as(rf.both()).isZero();
        assertThat(rf.out()).startsWith("Robinson-Foulds distance: 0 (normalised 0.0000; maximum 18 for 12 leaves)");
    }

    @Test
    void run_16TaxaDepth1TwoDevices_treeIsTheTrueTree() throws IOException {
        PhyloGenerator.Result data = PhyloGenerator.generate(dir.resolve("data"), 16, 1.0, 300, 1);
        Path tree = dir.resolve("tree.nwk");

        Cli.Result r = Cli.run("phylogenetics", dir.resolve("data").toString(), "--k", "5", "--tree",
                tree.toString(), "--device", "cpu:2", "--host-cache-size", "8slots", "--device-cache-size", "4slots");

        assertThat(r.code()).as(r.both()).isZero();
        TreeNode built = NewickParser.parse(Files.readString(tree));
        assertThat(RobinsonFoulds.distance(built, data.trueTree())).isZero();
    }

    @Test
    void run_smallCachesPlainAndGzip_distancesEqualSerialReference() throws IOException {
        PhyloGenerator.Result data = PhyloGenerator.generate(dir.resolve("data"), 7, 0.5, 60, 3);
        Path gz = data.proteomes().get(2);
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            Files.copy(in, dir.resolve("data/taxon03.faa"));
        }
        Files.delete(gz);
        Path tsv = dir.resolve("pairs.tsv");

        Cli.Result r = Cli.run("phylogenetics", dir.resolve("data").toString(), "--k", "4", "--output",
                tsv.toString(), "--device", "cpu:2", "--host-cache-size", "3slots", "--device-cache-size", "2slots",
                "--tile-size", "2", "--concurrent-jobs", "3");

        assertThat(r.code()).as(r.both()).isZero();
        DistanceMatrix expected = SerialCvTree.distances(ProteomeDirectory.scan(dir.resolve("data")).proteomes(), 4);
        List<String> lines = Files.readAllLines(tsv);
        assertThat(lines).hasSize(1 + 21);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t");
            int i = Integer.parseInt(f[0]);
            int j = Integer.parseInt(f[1]);
            assertThat(f[2]).isEqualTo(expected.name(i));
            assertThat(f[3]).isEqualTo(expected.name(j));
            assertThat(Double.parseDouble(f[4])).as(line).isEqualTo(expected.get(i, j));
        }
    }

    @Test
    void run_upgma_writesRootedTreeOfAllTaxa() throws IOException {
        PhyloGenerator.generate(dir.resolve("data"), 5, 0.5, 40, 4);
        Path tree = dir.resolve("tree.nwk");

        Cli.Result r = Cli.run("phylogenetics", dir.resolve("data").toString(), "--tree", tree.toString(),
                "--method", "upgma", "--max-entries", "200000", "--host-cache-size", "5slots");

        assertThat(r.code()).as(r.both()).isZero();
        assertThat(r.out()).contains("tree: 5 taxa, UPGMA");
        TreeNode root = NewickParser.parse(Files.readString(tree));
        assertThat(root.children()).hasSize(2);
        assertThat(root.leafLabels()).containsExactlyInAnyOrder("taxon01", "taxon02", "taxon03", "taxon04",
                "taxon05");
    }

    /**
     * Proteomes with stops, gaps, digits and blanks inside the sequences: by default every pair's distance is the
     * CVTree reference's; {@code --convention rocket} skips those characters and gives the serial reference's
     * distances with that convention, which differ.
     */
    @Test
    void run_conventionOption_cvtreeByDefaultRocketOnRequest() throws IOException {
        PhyloGenerator.Result data = PhyloGenerator.generate(dir.resolve("data"), 4, 0.5, 40, 6);
        List<Path> files = new java.util.ArrayList<>();
        for (Path gz : data.proteomes()) {
            String text = CvTreeReference.read(gz);
            StringBuilder messy = new StringBuilder();
            int line = 0;
            for (String l : text.split("\n")) {
                // stops, gaps, digits and blanks inside some lines, a stop ending every other line
                messy.append(l.startsWith(">") || line++ % 3 != 0 ? l : l.charAt(0) + "*-1 " + l.substring(1))
                        .append(l.startsWith(">") ? "\n" : "*\n".substring(line % 2));
            }
            Path plain = dir.resolve("data").resolve(TaxonLabels.fromPath(gz) + ".faa");
            Files.writeString(plain, messy.toString(), java.nio.charset.StandardCharsets.ISO_8859_1);
            Files.delete(gz);
            files.add(plain);
        }
        Path cvtree = dir.resolve("cvtree.tsv");
        Path rocket = dir.resolve("rocket.tsv");

        Cli.Result r1 = Cli.run("phylogenetics", dir.resolve("data").toString(), "--k", "4", "--output",
                cvtree.toString());
        Cli.Result r2 = Cli.run("phylogenetics", dir.resolve("data").toString(), "--k", "4", "--output",
                rocket.toString(), "--convention", "rocket");
        Cli.Result bad = Cli.run("phylogenetics", dir.resolve("data").toString(), "--convention", "hao");

        assertThat(r1.code()).as(r1.both()).isZero();
        assertThat(r2.code()).as(r2.both()).isZero();
        assertThat(bad.code()).as(bad.both()).isNotZero();
        assertThat(bad.both()).contains("unknown convention 'hao' (expected cvtree, cvtree5, rocket)");
        DistanceMatrix skipping = SerialCvTree.distances(files, 4, Convention.ROCKET);
        List<String> a = Files.readAllLines(cvtree);
        List<String> b = Files.readAllLines(rocket);
        assertThat(a).hasSize(1 + 6);
        assertThat(b).hasSize(1 + 6);
        for (int p = 1; p < a.size(); p++) { // rows come in completion order: each names its pair
            String[] f = a.get(p).split("\t");
            int i = Integer.parseInt(f[0]);
            int j = Integer.parseInt(f[1]);
            double cvtreeDistance = CvTreeReference.distance(CvTreeReference.read(files.get(i)),
                    CvTreeReference.read(files.get(j)), 4);
            assertThat(Double.parseDouble(f[4])).as(a.get(p)).isCloseTo(cvtreeDistance, within(1e-7));
            String[] g = b.get(p).split("\t");
            int gi = Integer.parseInt(g[0]);
            int gj = Integer.parseInt(g[1]);
            assertThat(Double.parseDouble(g[4])).as(b.get(p)).isEqualTo(skipping.get(gi, gj))
                    .isNotCloseTo(CvTreeReference.distance(CvTreeReference.read(files.get(gi)),
                            CvTreeReference.read(files.get(gj)), 4), within(1e-6));
        }
    }

    /**
     * {@code --convention cvtree5} gives CVTree 5's distances (each protein counted as itself twice) through the
     * launcher; the convention is part of the job's identity, so a disk cache filled by a cvtree run serves none of
     * its vectors to a cvtree5 run, and a journal of one is not resumed as the other.
     */
    @Test
    void run_cvtree5_cvtree5Distances_conventionKeysDiskCacheAndJournal() throws IOException {
        PhyloGenerator.Result data = PhyloGenerator.generate(dir.resolve("data"), 4, 0.5, 30, 7);
        Path cache = dir.resolve("cache");
        Path journal = dir.resolve("journal");
        Path published = dir.resolve("cvtree.tsv");
        Path cvtree5 = dir.resolve("cvtree5.tsv");
        String input = dir.resolve("data").toString();

        Cli.Result r1 = Cli.run("phylogenetics", input, "--k", "4", "--output", published.toString(), "--disk-cache",
                cache.toString(), "--journal", journal.toString());
        Cli.Result r2 = Cli.run("phylogenetics", input, "--k", "4", "--output", cvtree5.toString(), "--disk-cache",
                cache.toString(), "--convention", "cvtree5");
        Cli.Result resumed = Cli.run("phylogenetics", input, "--k", "4", "--output", published.toString(),
                "--journal", journal.toString(), "--convention", "cvtree5", "--resume");

        assertThat(r1.code()).as(r1.both()).isZero();
        assertThat(r2.code()).as(r2.both()).isZero();
        assertThat(resumed.code()).as(resumed.both()).isNotZero();
        assertThat(resumed.err()).contains("its options differ: --convention=cvtree in the journal, "
                + "--convention=cvtree5 now");
        List<String> a = Files.readAllLines(published);
        List<String> b = Files.readAllLines(cvtree5);
        assertThat(a).hasSize(1 + 6);
        assertThat(b).hasSize(1 + 6);
        for (int p = 1; p < b.size(); p++) { // rows come in completion order: each names its pair
            String[] f = b.get(p).split("\t");
            String left = CvTreeReference.read(data.proteomes().get(Integer.parseInt(f[0])));
            String right = CvTreeReference.read(data.proteomes().get(Integer.parseInt(f[1])));
            assertThat(Double.parseDouble(f[4])).as(b.get(p))
                    .isCloseTo(Cvtree5Reference.distance(left, right, 4), within(1e-7))
                    .isNotCloseTo(CvTreeReference.distance(left, right, 4), within(1e-6));
        }
    }
}
