package io.rocket.apps.forensics;

import io.rocket.apps.Cli;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code forensics --clusters} with {@code --min-score} or {@code --top-k}: clusters from the kept pairs alone equal
 * the dense clusters and the truth of a generated set, from a result store too, and unusable settings are refused in
 * one line.
 */
class ForensicsGraphClustersTest {

    @TempDir
    Path dir;

    private Path photos;

    @BeforeEach
    void generate() throws IOException {
        photos = dir.resolve("photos");
        ForensicsGenerator.generate(photos, new GeneratorOptions(3, 4, 256, 256, 0.03, 90, 5));
    }

    /** Runs forensics on the generated photos, writing the clusters to {@code name}, and expects success. */
    private Cli.Result clusters(String name, String... options) {
        String[] args = Stream.concat(Stream.of("forensics", photos.toString(), "--device", "cpu:2", "--clusters",
                dir.resolve(name).toString()), Stream.of(options)).toArray(String[]::new);
        Cli.Result r = Cli.run(args);
        assertThat(r.code()).as(r.both()).isZero();
        return r;
    }

    private List<String> lines(String name) throws IOException {
        return Files.readAllLines(dir.resolve(name));
    }

    /** The number of kept pairs the clusters were made from, as the report says. */
    private static int keptPairs(Cli.Result r) {
        Matcher m = Pattern.compile("clustered from the ([0-9,]+) kept pairs").matcher(r.out());
        assertThat(m.find()).as(r.both()).isTrue();
        return Integer.parseInt(m.group(1).replace(",", ""));
    }

    private void sparseEqualsDenseAndTruth(String metric, String minScore) throws IOException {
        Cli.Result dense = clusters("dense.tsv", "--metric", metric);
        assertThat(dense.out()).contains("12 photos in 3 clusters").contains("adjusted Rand index 1.000");

        Cli.Result banded = clusters("min.tsv", "--metric", metric, "--min-score", minScore);
        assertThat(banded.out()).contains("clustered from the").contains("every other pair counts as 0.0")
                .contains("12 photos in 3 clusters").contains("adjusted Rand index 1.000");
        assertThat(lines("min.tsv")).isEqualTo(lines("dense.tsv"));
        // All 18 same-camera pairs were kept, and fewer than the 66 pairs in all.
        assertThat(keptPairs(banded)).isBetween(18, 65);

        // Four photos per camera: each photo's three best partners are its camera's other photos.
        Cli.Result nearest = clusters("top.tsv", "--metric", metric, "--top-k", "3");
        assertThat(nearest.out()).contains("adjusted Rand index 1.000");
        assertThat(keptPairs(nearest)).isBetween(18, 65);
        assertThat(lines("top.tsv")).isEqualTo(lines("dense.tsv"));
    }

    @Test
    void pce_minScoreOrTopK_clustersEqualDenseAndTruth() throws IOException {
        sparseEqualsDenseAndTruth("pce", "10");
    }

    @Test
    void ncc_minScoreOrTopK_clustersEqualDenseAndTruth() throws IOException {
        sparseEqualsDenseAndTruth("ncc", "0.003");
    }

    @Test
    void store_anotherThresholdReclustersTheKeptPairsWithoutComputing() throws IOException {
        String store = dir.resolve("store").toString();
        clusters("first.tsv", "--store", store, "--min-score", "10");
        assertThat(lines("first.tsv")).extracting(l -> l.split("\t")[1]).containsOnly("1", "2", "3");

        Cli.Result strict = clusters("strict.tsv", "--store", store, "--min-score", "10", "--threshold", "1e12");
        assertThat(strict.out()).contains("computed 0").contains("12 photos in 12 clusters");

        Cli.Result again = clusters("again.tsv", "--store", store, "--min-score", "10");
        assertThat(again.out()).contains("computed 0");
        assertThat(lines("again.tsv")).isEqualTo(lines("first.tsv"));
    }

    @Test
    void minScoreAboveThreshold_isNotedOnStandardError() {
        Cli.Result r = clusters("c.tsv", "--min-score", "100000", "--threshold", "60");
        assertThat(r.err()).contains("note: --min-score 100000.0 is above --threshold 60.0");
    }

    /** Runs a command that must be refused and returns its one-line message. */
    private String refused(String... options) {
        String[] args = Stream.concat(Stream.of("forensics", photos.toString()), Stream.of(options))
                .toArray(String[]::new);
        Cli.Result r = Cli.run(args);
        assertThat(r.code()).as(r.both()).isNotZero();
        assertThat(r.err().strip().lines()).as(r.both()).hasSize(1);
        return r.err();
    }

    @Test
    void badSettings_areRefusedInOneLine() {
        String c = dir.resolve("c.tsv").toString();
        assertThat(refused("--matrix", dir.resolve("m.tsv").toString(), "--min-score", "10"))
                .contains("--matrix needs every score");
        assertThat(refused("--clusters", c, "--max-score", "1000"))
                .contains("--clusters cannot be combined with --max-score");
        assertThat(refused("--clusters", c, "--min-score", "10", "--threshold", "0"))
                .contains("needs --threshold above 0.0");
        assertThat(refused("--clusters", c, "--metric", "ncc", "--min-score", "-0.5", "--threshold", "-0.6"))
                .contains("needs --threshold above -0.5");
        assertThat(dir.resolve("c.tsv")).doesNotExist();
    }
}
