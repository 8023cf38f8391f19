package org.example.jaccard;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The loop a user would write instead of Rocket, for {@code scripts/bench own-app}: loads every document of a
 * directory with the example's own {@link JaccardApp#shingles}, then runs the example's own {@link JaccardApp#jaccard}
 * over every pair i &lt; j on all cores (one thread per core taking rows in turn, longest first, so the threads
 * finish together), keeping each result in one array. Items are held as little-endian direct buffers of longs, as Rocket's cpu
 * device holds them.
 *
 * <p>Prints one line: {@code plain-loop DOCS PAIRS LOAD_SECONDS COMPARE_SECONDS CHECKSUM}. Usage:
 * {@code PlainLoop DIR [K]}.
 */
public final class PlainLoop {
    private PlainLoop() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int k = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(Files::isRegularFile).sorted().toList();
        }
        int n = files.size();
        int threads = Runtime.getRuntime().availableProcessors();

        long t0 = System.nanoTime();
        ByteBuffer[] sets = new ByteBuffer[n];
        parallel(threads, n, i -> sets[i] = load(files.get(i), k));
        long t1 = System.nanoTime();

        double[] results = new double[n * (n - 1) / 2];
        parallel(threads, n, i -> {
            int at = i * (2 * n - i - 1) / 2; // pair (i, i + 1) in the condensed triangle
            ByteBuffer a = sets[i];
            int na = a.capacity() / Long.BYTES;
            for (int j = i + 1; j < n; j++) {
                ByteBuffer b = sets[j];
                results[at++] = JaccardApp.jaccard(a, na, b, b.capacity() / Long.BYTES);
            }
        });
        long t2 = System.nanoTime();

        double sum = 0;
        for (double r : results) {
            sum += r;
        }
        System.out.printf("plain-loop %d %d %.6f %.6f %.6f%n", n, results.length, (t1 - t0) / 1e9, (t2 - t1) / 1e9,
                sum);
    }

    private static ByteBuffer load(Path file, int k) {
        try {
            long[] shingles = JaccardApp.shingles(new String(Files.readAllBytes(file), StandardCharsets.UTF_8), k);
            ByteBuffer set = ByteBuffer.allocateDirect(shingles.length * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
            for (int s = 0; s < shingles.length; s++) {
                set.putLong(s * Long.BYTES, shingles[s]);
            }
            return set;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(file + ": " + e.getMessage(), e);
        }
    }

    /** Runs {@code body} for 0..n-1 on {@code threads} threads, each taking the next index in turn. */
    private static void parallel(int threads, int n, java.util.function.IntConsumer body) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        Thread[] pool = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            pool[t] = new Thread(() -> {
                for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                    body.accept(i);
                }
            });
            pool[t].start();
        }
        for (Thread t : pool) {
            t.join();
        }
    }
}
