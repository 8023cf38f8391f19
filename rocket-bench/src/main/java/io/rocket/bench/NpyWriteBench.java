package io.rocket.bench;

import io.rocket.output.DenseNpySink;
import io.rocket.output.NpyDtype;
import io.rocket.output.TriangleLayout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The dense {@code .npy} writer alone, without the runtime (which at zero cost per pair sustains a few hundred
 * thousand pairs/s on a small machine, far below what the writer takes): every pair of N items handed to
 * {@link DenseNpySink} in the order the blocked schedule produces them — bands of B rows, the other items streaming
 * past in 16×16 tiles, each tile row by row — then closed. Prints the file's size, the time from creation (NaN fill
 * included) to close, MB/s and pairs/s.
 *
 * <p>Usage: {@code java -cp rocket-bench/target/benchmarks.jar io.rocket.bench.NpyWriteBench [N] [float32|float64]
 * [DIR]} (defaults 10000, float32, the temporary directory).
 */
public final class NpyWriteBench {
    private static final int BAND = 1000;
    private static final int TILE = 16;

    private NpyWriteBench() {
    }

    /**
     * Runs the benchmark once and prints one line.
     *
     * @param args N, the number type and the directory, all optional
     * @throws Exception when the file cannot be written
     */
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        NpyDtype dtype = args.length > 1 ? NpyDtype.parse(args[1]) : NpyDtype.FLOAT32;
        Path dir = args.length > 2 ? Path.of(args[2]) : Path.of(System.getProperty("java.io.tmpdir"));
        Path file = Files.createTempFile(dir, "npy-bench-", ".npy");
        try {
            long start = System.nanoTime();
            long pairs = 0;
            try (DenseNpySink<Integer, Double> sink = new DenseNpySink<>(file, new TriangleLayout(n), dtype,
                    Double::doubleValue)) {
                Double value = 0.5;
                for (int band = 0; band < n; band += BAND) {
                    int bandEnd = Math.min(n, band + BAND);
                    for (int rows = band; rows < bandEnd; rows += TILE) {
                        for (int cols = rows; cols < n; cols += TILE) {
                            for (int i = rows; i < Math.min(bandEnd, rows + TILE); i++) {
                                for (int j = Math.max(i + 1, cols); j < Math.min(n, cols + TILE); j++) {
                                    sink.accept(i, j, i, j, value);
                                    pairs++;
                                }
                            }
                        }
                    }
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long bytes = Files.size(file);
            System.out.printf(Locale.ROOT, "npy-sink: %d items, %d pairs, %s, %.1f MB in %.2f s: %.0f MB/s, "
                    + "%.0f pairs/s%n", n, pairs, dtype, bytes / 1e6, seconds, bytes / 1e6 / seconds, pairs / seconds);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
