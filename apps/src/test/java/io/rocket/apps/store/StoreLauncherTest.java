package io.rocket.apps.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocket.apps.Cli;
import io.rocket.apps.forensics.ForensicsGenerator;
import io.rocket.apps.forensics.GeneratorOptions;
import io.rocket.apps.phylogenetics.PhyloGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --store} through the launcher: a grown collection's outputs equal a from-scratch run's with only the new
 * pairs computed; a changed input recomputes exactly its pairs; another threshold re-clusters and another tree
 * method rebuilds the tree from the store, computing nothing; a store of another job is refused in one line.
 */
class StoreLauncherTest {
    @TempDir
    Path dir;

    private static Cli.Result ok(String... args) {
        Cli.Result r = Cli.run(args);
        assertThat(r.code()).as(r.both()).isZero();
        return r;
    }

    private static JsonNode json(Path file) throws IOException {
        return new ObjectMapper().readTree(file.toFile());
    }

    private static List<String> sorted(Path file) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        lines.sort(null);
        return lines;
    }

    /** {@code pairs_computed} and {@code pairs_reused} of a summary. */
    private static long[] counts(Path summary) throws IOException {
        JsonNode s = json(summary);
        return new long[] {s.get("pairs_computed").asLong(), s.path("pairs_reused").asLong()};
    }

    @Test
    void synthetic_grownCollection_equalsAFromScratchRun_withOnlyTheNewPairsComputed() throws IOException {
        Path store = dir.resolve("store");
        Path reference = dir.resolve("reference.tsv");
        ok("synthetic", "--items", "60", "--seed", "5", "--output", reference.toString());
        Path first = dir.resolve("first.tsv");
        ok("synthetic", "--items", "40", "--seed", "5", "--store", store.toString(), "--output", first.toString(),
                "--summary-json", dir.resolve("s1.json").toString());
        assertThat(counts(dir.resolve("s1.json"))).containsExactly(780, 0);

        Path grown = dir.resolve("grown.tsv");
        Cli.Result r = ok("synthetic", "--items", "60", "--seed", "5", "--store", store.toString(), "--output",
                grown.toString(), "--summary-json", dir.resolve("s2.json").toString(), "--verify");
        assertThat(counts(dir.resolve("s2.json"))).containsExactly(1770 - 780, 780);
        assertThat(r.out()).contains("reused 780 pairs from the store, computed 990").contains("verified: all 1770");
        assertThat(sorted(grown)).isEqualTo(sorted(reference));

        Cli.Result other = Cli.run("synthetic", "--items", "60", "--seed", "6", "--store", store.toString());
        assertThat(other.code()).as(other.both()).isNotZero();
        assertThat(other.err().strip()).isEqualTo("rocket: error: --store: " + store + " holds the results of another job "
                + "(its options differ: --seed=5 in the store, --seed=6 now)");
        Cli.Result both = Cli.run("synthetic", "--items", "6", "--store", store.toString(), "--journal",
                dir.resolve("journal").toString());
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err().strip()).isEqualTo("rocket: --store and --journal: give one of them (the store "
                + "continues an earlier run by itself) (see: rocket synthetic --help)");
    }

    /** Queries against references take their pairs from a store of the whole collection, and write only those. */
    @Test
    void phylogenetics_queriesAgainstReferences_takeOnlyTheirPairsFromTheStore() throws IOException {
        Path all = dir.resolve("all");
        ok("generate", "phylogenetics", "--out", all.toString(), "--taxa", "10", "--proteins", "8");
        Path store = dir.resolve("store");
        Path everything = dir.resolve("everything.tsv");
        ok("phylogenetics", all.toString(), "--store", store.toString(), "--output", everything.toString());
        Path queries = Files.createDirectories(dir.resolve("queries"));
        Path refs = Files.createDirectories(dir.resolve("refs"));
        try (var files = Files.list(all)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".faa.gz")).sorted().toList()) {
                boolean query = f.getFileName().toString().matches("taxon0[12]\\..*");
                Files.copy(f, (query ? queries : refs).resolve(f.getFileName()),
                        java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        Path against = dir.resolve("against.tsv");
        Path summary = dir.resolve("against.json");
        ok("phylogenetics", queries.toString(), "--against", refs.toString(), "--store", store.toString(),
                "--output", against.toString(), "--summary-json", summary.toString());
        assertThat(counts(summary)).containsExactly(0, 16);
        List<String> lines = Files.readAllLines(against);
        assertThat(lines).hasSize(1 + 16);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t");
            assertThat(f[2].startsWith("taxon01") || f[2].startsWith("taxon02")
                    || f[3].startsWith("taxon01") || f[3].startsWith("taxon02")).as(line).isTrue();
        }
    }

    @Test
    void forensics_changedPhotoRecomputesItsPairs_andAnotherThresholdReclustersFromTheStore() throws IOException {
        Path photos = dir.resolve("photos");
        ForensicsGenerator.generate(photos, new GeneratorOptions(2, 3, 64, 48, 0.03, 90, 5));
        Path store = dir.resolve("store");
        String[] common = {"forensics", photos.toString(), "--metric", "ncc", "--store", store.toString()};
        ok(concat(common, "--clusters", dir.resolve("c1.tsv").toString(), "--summary-json",
                dir.resolve("s1.json").toString()));
        assertThat(counts(dir.resolve("s1.json"))).containsExactly(15, 0);

        Path changed;
        try (var listing = Files.list(photos)) {
            changed = listing.filter(p -> p.toString().endsWith(".jpg")).sorted().toList().get(2);
        }
        Files.setLastModifiedTime(changed, FileTime.fromMillis(Files.getLastModifiedTime(changed).toMillis() + 5000));
        Path pairs = dir.resolve("pairs.tsv");
        ok(concat(common, "--output", pairs.toString(), "--summary-json", dir.resolve("s2.json").toString()));
        assertThat(counts(dir.resolve("s2.json"))).containsExactly(5, 10);
        assertThat(Files.readAllLines(pairs)).hasSize(1 + 15);

        // Another threshold: the clusters of a from-scratch run at it, from the store alone.
        Path fromStore = dir.resolve("c-store.tsv");
        Path fromScratch = dir.resolve("c-scratch.tsv");
        ok(concat(common, "--threshold", "0.9", "--clusters", fromStore.toString(), "--summary-json",
                dir.resolve("s3.json").toString()));
        assertThat(counts(dir.resolve("s3.json"))).containsExactly(0, 15);
        ok("forensics", photos.toString(), "--metric", "ncc", "--threshold", "0.9", "--clusters",
                fromScratch.toString());
        assertThat(Files.readAllLines(fromStore)).isEqualTo(Files.readAllLines(fromScratch))
                .isNotEqualTo(Files.readAllLines(dir.resolve("c1.tsv")));
    }

    @Test
    void phylogenetics_addedProteomeComputesItsPairs_andAnotherMethodRebuildsTheTreeFromTheStore()
            throws IOException {
        Path data = dir.resolve("data");
        PhyloGenerator.Result generated = PhyloGenerator.generate(data, 6, 0.5, 40, 3);
        Path added = generated.proteomes().get(2);
        Path aside = Files.move(added, dir.resolve(added.getFileName()));
        Path store = dir.resolve("store");
        String[] common = {"phylogenetics", data.toString(), "--k", "4", "--store", store.toString()};
        ok(concat(common, "--summary-json", dir.resolve("s1.json").toString()));
        assertThat(counts(dir.resolve("s1.json"))).containsExactly(10, 0);

        Files.move(aside, added);
        Path matrix = dir.resolve("matrix.phy");
        ok(concat(common, "--matrix", matrix.toString(), "--summary-json", dir.resolve("s2.json").toString()));
        assertThat(counts(dir.resolve("s2.json"))).containsExactly(5, 10);
        Path scratchMatrix = dir.resolve("scratch.phy");
        Path scratchTree = dir.resolve("scratch.nwk");
        ok("phylogenetics", data.toString(), "--k", "4", "--matrix", scratchMatrix.toString(), "--tree",
                scratchTree.toString(), "--method", "upgma");
        assertThat(Files.readString(matrix)).isEqualTo(Files.readString(scratchMatrix));

        Path tree = dir.resolve("upgma.nwk");
        ok(concat(common, "--method", "upgma", "--tree", tree.toString(), "--summary-json",
                dir.resolve("s3.json").toString()));
        assertThat(counts(dir.resolve("s3.json"))).containsExactly(0, 15);
        assertThat(Files.readString(tree)).isEqualTo(Files.readString(scratchTree));
    }

    private static String[] concat(String[] head, String... tail) {
        String[] all = new String[head.length + tail.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }
}
