package io.rocket.apps.inputs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocket.apps.Cli;
import io.rocket.apps.phylogenetics.PhyloGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Read-ahead in schedule order on a real run: with a host cache too small to keep every proteome, items are loaded
 * again and again; read-ahead reads their files before the loads ask, the loads use those reads, and the results are
 * exactly those of a run without read-ahead.
 */
class ReadAheadTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void readAhead_smallCache_usedByLoadsAndSameResults() throws IOException {
        Path data = dir.resolve("data");
        PhyloGenerator.generate(data, 24, 0.5, 100, 7);
        long bytes = 0;
        try (var files = Files.list(data)) {
            for (Path p : files.filter(p -> p.toString().endsWith(".faa.gz")).toList()) {
                bytes += Files.size(p);
            }
        }

        JsonNode off = run(data, "off", "0");
        JsonNode on = run(data, "on", "64M");

        assertThat(Files.readAllLines(dir.resolve("on.tsv"))).hasSize(277)
                .containsExactlyInAnyOrderElementsOf(Files.readAllLines(dir.resolve("off.tsv")));
        assertThat(off.path("read_ahead").isMissingNode()).isTrue();
        JsonNode ahead = on.path("read_ahead");
        assertThat(ahead.path("fetched").asLong()).as(on.toPrettyString()).isPositive();
        assertThat(ahead.path("used").asLong()).isPositive();
        assertThat(ahead.path("used").asLong() + ahead.path("discarded").asLong())
                .isEqualTo(ahead.path("fetched").asLong());
        for (JsonNode summary : List.of(on, off)) {
            JsonNode local = summary.path("inputs").path("file");
            long loads = summary.path("loads").asLong();
            assertThat(loads).isGreaterThan(24); // the cache is too small: items load more than once
            // Every load read its item's files, once, whether ahead or on demand; read-ahead reads may add a few.
            assertThat(local.path("files").asLong()).isGreaterThanOrEqualTo(loads);
            assertThat(local.path("bytes").asLong()).isGreaterThanOrEqualTo(bytes);
            assertThat(local.path("mb_per_s").asDouble()).isPositive();
        }
        assertThat(on.path("step_seconds").has("read_ahead")).isTrue();
    }

    private JsonNode run(Path data, String name, String readAhead) throws IOException {
        Path summary = dir.resolve(name + ".json");
        Cli.Result r = Cli.run("phylogenetics", data.toString(), "--k", "4", "-o", dir.resolve(name + ".tsv").toString(),
                "--summary-json", summary.toString(), "--host-cache-size", "4slots", "--device-cache-size", "2slots",
                "--tile-size", "4", "--read-ahead", readAhead, "--no-progress");
        assertThat(r.code()).as(r.both()).isZero();
        return JSON.readTree(summary.toFile());
    }
}
