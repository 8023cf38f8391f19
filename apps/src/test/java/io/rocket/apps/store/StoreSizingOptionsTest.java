package io.rocket.apps.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocket.apps.Cli;
import io.rocket.apps.phylogenetics.PhyloGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Options that only size buffers are not part of a store's job: phylogenetics {@code --max-entries} and
 * {@code --max-residues} may be added to or dropped from a run over a store, which then computes nothing; a pair
 * that failed because a proteome did not fit the buffers is not kept, so a run with larger ones computes it; a
 * store made while those options were still part of the job's identity is read as before.
 */
class StoreSizingOptionsTest {
    @TempDir
    Path dir;

    private static Cli.Result run(int code, String... args) {
        Cli.Result r = Cli.run(args);
        assertThat(r.code()).as(r.both()).isEqualTo(code);
        return r;
    }

    /** {@code pairs_computed}, {@code pairs_reused} and {@code errors} of a summary. */
    private static long[] counts(Path summary) throws IOException {
        JsonNode s = new ObjectMapper().readTree(summary.toFile());
        return new long[] {s.get("pairs_computed").asLong(), s.path("pairs_reused").asLong(), s.get("errors").asLong()};
    }

    private String[] phylo(Path store, Path summary, String... more) {
        String[] base = {"phylogenetics", dir.resolve("data").toString(), "--k", "6", "--store", store.toString(),
                "--summary-json", summary.toString()};
        String[] args = new String[base.length + more.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(more, 0, args, base.length, more.length);
        return args;
    }

    @Test
    void phylogenetics_addingMaxEntriesAtK6_reusesTheStore() throws IOException {
        PhyloGenerator.generate(dir.resolve("data"), 6, 0.5, 30, 4);
        Path store = dir.resolve("store");
        Path s1 = dir.resolve("s1.json");
        run(0, phylo(store, s1));
        assertThat(counts(s1)).containsExactly(15, 0, 0);
        assertThat(Files.readString(store.resolve("store.txt"))).doesNotContain("--max-entries")
                .doesNotContain("--max-residues");

        Path s2 = dir.resolve("s2.json");
        Cli.Result r = run(0, phylo(store, s2, "--max-entries", "30000", "--max-residues", "20000"));
        assertThat(r.out()).contains("reused 15 pairs from the store, computed 0");
        assertThat(counts(s2)).containsExactly(0, 15, 0);
    }

    @Test
    void phylogenetics_pairsFailedForASlotTooSmall_areComputedByARunWithLargerSlots() throws IOException {
        PhyloGenerator.generate(dir.resolve("data"), 5, 0.5, 30, 5);
        Path store = dir.resolve("store");
        Path s1 = dir.resolve("s1.json");
        Cli.Result small = run(3, phylo(store, s1, "--max-entries", "100"));
        assertThat(small.out()).contains("rerun with --max-entries");
        assertThat(counts(s1)).containsExactly(10, 0, 10);

        Path s2 = dir.resolve("s2.json");
        run(0, phylo(store, s2));
        assertThat(counts(s2)).containsExactly(10, 0, 0);
        Path s3 = dir.resolve("s3.json");
        run(0, phylo(store, s3, "--max-entries", "100000"));
        assertThat(counts(s3)).containsExactly(0, 10, 0);
    }

    @Test
    void phylogenetics_aStoreThatStillNamesTheSizingOptions_isReadAsBefore() throws IOException {
        PhyloGenerator.generate(dir.resolve("data"), 4, 0.5, 30, 6);
        Path store = dir.resolve("store");
        run(0, phylo(store, dir.resolve("s1.json")));
        // As a store made before they left the job's identity: not given, then given.
        Path header = store.resolve("store.txt");
        String made = Files.readString(header);
        Files.writeString(header, made + "option --max-residues=null\noption --max-entries=null\n");
        Path s2 = dir.resolve("s2.json");
        run(0, phylo(store, s2, "--max-entries", "30000"));
        assertThat(counts(s2)).containsExactly(0, 6, 0);
        Files.writeString(header, made + "option --max-residues=null\noption --max-entries=30000\n");
        Path s3 = dir.resolve("s3.json");
        run(0, phylo(store, s3));
        assertThat(counts(s3)).containsExactly(0, 6, 0);

        Cli.Result other = run(1, phylo(store, dir.resolve("s4.json"), "--convention", "rocket"));
        assertThat(other.err().strip().lines().toList()).last().isEqualTo("rocket: error: --store: " + store + " holds the results of "
                + "another job (its options differ: --convention=cvtree in the store, --convention=rocket now)");
    }

    @Test
    void synthetic_queries_isNotPartOfTheJob() throws IOException {
        Path store = dir.resolve("store");
        run(0, "synthetic", "--items", "12", "--seed", "3", "--store", store.toString());
        Path s = dir.resolve("s.json");
        run(0, "synthetic", "--items", "12", "--seed", "3", "--queries", "4", "--store", store.toString(),
                "--summary-json", s.toString());
        assertThat(counts(s)[0]).isZero();
    }
}
