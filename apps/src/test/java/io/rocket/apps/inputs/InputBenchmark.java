package io.rocket.apps.inputs;

import io.rocket.core.ResultSink;
import io.rocket.core.summary.InputTraffic;
import io.rocket.core.summary.RunSummary;
import io.rocket.runtime.InputOptions;
import io.rocket.runtime.Rocket;
import io.rocket.runtime.RocketOptions;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The remote-input benchmark: the same job on inputs from local disk, SFTP and S3 (servers on loopback), with and
 * without read-ahead, side by side in one process; then each storage again with the disk cache, cold and warm.
 * Prints MB/s and system efficiency per run, and the warm disk-cache run's speed-up. Run by
 * {@code scripts/bench inputs}.
 *
 * <p>Arguments: {@code [items] [megabytes per item] [compare rounds]}; defaults 64, 30, 150.
 */
public final class InputBenchmark {
    private InputBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int items = args.length > 0 ? Integer.parseInt(args[0]) : 64;
        int megabytes = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 150;
        Path work = Files.createTempDirectory("rocket-input-bench");
        try {
            Path data = work.resolve("data");
            generate(data, items, megabytes);
            System.out.printf(Locale.ROOT, "inputs: %d files of %d MB (%.2f GB) in %s; compare rounds %d%n", items,
                    megabytes, items * (double) megabytes / 1e3, data, rounds);
            List<BenchStorage> storages = BenchStorage.all(work, data);
            try {
                List<String> rows = new ArrayList<>();
                rows.add(String.format(Locale.ROOT, "%-6s %-22s %8s %8s %9s %9s", "from", "run", "wall s",
                        "MB/s", "stream", "sys eff"));
                run(storages.get(0).keys(), rounds, megabytes, 0, null); // warms the JIT up, untimed
                for (BenchStorage storage : storages) {
                    List<Path> keys = storage.keys();
                    RunSummary plain = run(keys, rounds, megabytes, 0, null);
                    RunSummary ahead = run(keys, rounds, megabytes, InputOptions.DEFAULT_READ_AHEAD, null);
                    Path cache = work.resolve("disk-cache-" + storage.name());
                    RunSummary cold = run(keys, rounds, megabytes, InputOptions.DEFAULT_READ_AHEAD, cache);
                    RunSummary warm = run(keys, rounds, megabytes, InputOptions.DEFAULT_READ_AHEAD, cache);
                    if (System.getenv("BENCH_VERBOSE") != null) {
                        System.out.print(cold.format() + warm.format());
                    }
                    rows.add(row(storage.name(), "no read-ahead", plain));
                    rows.add(row(storage.name(), "read-ahead 256M", ahead));
                    rows.add(row(storage.name(), "disk cache, cold", cold));
                    rows.add(row(storage.name(), "disk cache, warm", warm)
                            + String.format(Locale.ROOT, "   %.1fx faster than no cache (%d disk hits)",
                            plain.wallSeconds / warm.wallSeconds, warm.diskCache.getOrDefault("hits", 0L)));
                    rows.add(String.format(Locale.ROOT, "%-6s read-ahead: %.2fx the wall time without it",
                            storage.name(), ahead.wallSeconds / plain.wallSeconds));
                }
                rows.forEach(System.out::println);
            } finally {
                for (BenchStorage s : storages) {
                    s.close();
                }
            }
        } finally {
            try (Stream<Path> all = Files.walk(work)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static String row(String from, String run, RunSummary s) {
        double mbps = 0;
        double stream = 0;
        for (InputTraffic.Figures f : s.inputs.values()) {
            mbps += f.mbPerSecond();
            stream = Math.max(stream, f.readMbPerSecond());
        }
        return String.format(Locale.ROOT, "%-6s %-22s %8.2f %8.1f %9.1f %9.3f", from, run, s.wallSeconds, mbps,
                stream, s.systemEfficiency);
    }

    private static RunSummary run(List<Path> keys, int rounds, int megabytes, long readAhead, Path diskCache)
            throws InterruptedException {
        System.gc(); // frees the last run's direct buffers now, not while this run allocates its own
        BlockSketchApp app = new BlockSketchApp((long) megabytes << 20, rounds);
        RocketOptions options = RocketOptions.defaults().withInputs(new InputOptions(readAhead, diskCache, 0,
                "block-sketch rounds=" + rounds));
        return Rocket.run(app, keys, options, new ResultSink<>() {
            @Override
            public void accept(int i, int j, Path left, Path right, Double result) {
            }

            @Override
            public void failed(int i, int j, Path left, Path right, Throwable error) {
                throw new IllegalStateException("pair failed: " + error.getMessage(), error);
            }
        });
    }

    private static void generate(Path dir, int items, int megabytes) throws IOException {
        Files.createDirectories(dir);
        byte[] block = new byte[1 << 20];
        for (int k = 0; k < items; k++) {
            SplittableRandom random = new SplittableRandom(k);
            try (OutputStream out = Files.newOutputStream(dir.resolve(String.format(Locale.ROOT, "item%03d.bin", k)))) {
                for (int m = 0; m < megabytes; m++) {
                    for (int b = 0; b < block.length; b += 8) {
                        long v = random.nextLong();
                        for (int s = 0; s < 8; s++) {
                            block[b + s] = (byte) (v >>> (8 * s));
                        }
                    }
                    out.write(block);
                }
            }
        }
    }
}
