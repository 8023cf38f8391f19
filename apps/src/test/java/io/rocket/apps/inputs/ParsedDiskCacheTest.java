package io.rocket.apps.inputs;

import io.rocket.runtime.InputOptions;
import io.rocket.runtime.Rocket;
import io.rocket.runtime.RocketOptions;
import io.rocket.core.ResultSink;
import io.rocket.core.summary.RunSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The disk cache for an application that keeps parsed items: many more items than staging buffers, few I/O and CPU
 * threads, so disk reads, parses and disk writes all wait for buffers at once; the cold run must not stall, and the
 * warm run must read every item from disk and give the same results.
 */
class ParsedDiskCacheTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void coldThenWarm_manyItemsFewBuffers_sameResultsAllFromDisk() throws Exception {
        List<Path> keys = new ArrayList<>();
        byte[] bytes = new byte[64 << 10];
        for (int k = 0; k < 40; k++) {
            new SplittableRandom(k).nextBytes(bytes);
            Path file = dir.resolve(String.format("f%02d.bin", k));
            Files.write(file, bytes);
            keys.add(file);
        }
        Path cache = dir.resolve("cache");
        Map<Long, Double> cold = new TreeMap<>();
        Map<Long, Double> warm = new TreeMap<>();

        RunSummary first = run(keys, cache, cold);
        RunSummary second = run(keys, cache, warm);

        assertThat(first.diskCache.get("writes")).isEqualTo(40);
        assertThat(second.diskCache.get("hits")).isEqualTo(40);
        assertThat(second.inputs).isEmpty();
        assertThat(warm).hasSize(40 * 39 / 2).isEqualTo(cold);
    }

    private static RunSummary run(List<Path> keys, Path cache, Map<Long, Double> results) throws Exception {
        RocketOptions options = RocketOptions.defaults().withThreads(1, 1).withConcurrentJobs(8).withTileSize(4)
                .withInputs(new InputOptions(1 << 20, cache, 64L << 20, "parsed-disk-cache-test"));
        return Rocket.run(new BlockSketchApp(64 << 10, 1), keys, options, new ResultSink<>() {
            @Override
            public synchronized void accept(int i, int j, Path left, Path right, Double result) {
                results.put(((long) i << 32) | j, result);
            }

            @Override
            public void failed(int i, int j, Path left, Path right, Throwable error) {
                throw new AssertionError("pair failed: " + error.getMessage(), error);
            }
        });
    }
}
