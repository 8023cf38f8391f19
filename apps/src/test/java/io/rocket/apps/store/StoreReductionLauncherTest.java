package io.rocket.apps.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocket.apps.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --store} with {@code --top-k}/{@code --min-score} through the launcher: the store holds every pair, so the
 * same command with another reduction re-filters it, computing nothing, and writes what a fresh run writes.
 */
class StoreReductionLauncherTest {
    @TempDir
    Path dir;

    private static Cli.Result ok(String... args) {
        Cli.Result r = Cli.run(args);
        assertThat(r.code()).as(r.both()).isZero();
        return r;
    }

    private static long computed(Path summary) throws IOException {
        return new ObjectMapper().readTree(summary.toFile()).get("pairs_computed").asLong();
    }

    private static List<String> sorted(Path file) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        lines.sort(null);
        return lines;
    }

    @Test
    void synthetic_anotherTopKOrBand_refiltersTheStoreComputingNothing() throws IOException {
        Path store = dir.resolve("store");
        String[] common = {"synthetic", "--items", "30", "--seed", "3", "--store", store.toString()};
        ok(concat(common, "--top-k", "2", "--summary-json", dir.resolve("s1.json").toString()));
        assertThat(computed(dir.resolve("s1.json"))).isEqualTo(435);

        Path fromStore = dir.resolve("store-top4.tsv");
        ok(concat(common, "--top-k", "4", "--output", fromStore.toString(), "--summary-json",
                dir.resolve("s2.json").toString()));
        assertThat(computed(dir.resolve("s2.json"))).isZero();
        Path fresh = dir.resolve("fresh-top4.tsv");
        ok("synthetic", "--items", "30", "--seed", "3", "--top-k", "4", "--output", fresh.toString());
        assertThat(sorted(fromStore)).isEqualTo(sorted(fresh)).hasSizeGreaterThan(1 + 30 * 4 / 2);

        Path band = dir.resolve("store-band.tsv");
        ok(concat(common, "--min-score", "0", "--output", band.toString(), "--summary-json",
                dir.resolve("s3.json").toString()));
        assertThat(computed(dir.resolve("s3.json"))).isZero();
        Path freshBand = dir.resolve("fresh-band.tsv");
        ok("synthetic", "--items", "30", "--seed", "3", "--min-score", "0", "--output", freshBand.toString());
        assertThat(sorted(band)).isEqualTo(sorted(freshBand));

        Cli.Result journal = Cli.run("synthetic", "--items", "6", "--top-k", "1", "--journal",
                dir.resolve("journal").toString());
        assertThat(journal.code()).isEqualTo(2);
        assertThat(journal.err().strip()).isEqualTo("rocket: --top-k, --min-score and --max-score cannot be "
                + "combined with --journal (they can with --store) (see: rocket synthetic --help)");
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
