package io.rocket.cache.disk;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One process of {@link DiskCacheProcessTest}: two threads read and write overlapping keys of a shared cache
 * directory until a deadline, checking every hit against the bytes its key stands for. Any wrong byte or damaged
 * entry ends the process with an error; at the end it prints its counters on one line for the test to check.
 *
 * <p>Arguments: cache directory, inputs directory (holding {@code item-K.dat} for each key), limit in bytes,
 * run time in milliseconds, seed, number of keys.
 */
public final class DiskCacheHammer {
    private DiskCacheHammer() {
    }

    /** The payload of key {@code k}, the same in every process. */
    static byte[] payload(int k) {
        return Payloads.bytes(1000L + k, 1000 + (k * 7919) % 9000);
    }

    static String inputName(int k) {
        return "item-" + k + ".dat";
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Path inputs = Path.of(args[1]);
        long limit = Long.parseLong(args[2]);
        long deadline = System.nanoTime() + Long.parseLong(args[3]) * 1_000_000L;
        long seed = Long.parseLong(args[4]);
        int keys = Integer.parseInt(args[5]);
        List<DiskKey> keyList = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            keyList.add(DiskKey.of(Payloads.JOB, "parsed", "item-" + k, List.of(inputs.resolve(inputName(k)))));
        }
        AtomicLong ops = new AtomicLong();
        List<Throwable> failures = new ArrayList<>();
        DiskCache.Stats stats;
        try (DiskCache cache = DiskCache.open(dir, limit)) {
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                SplittableRandom random = new SplittableRandom(seed * 31 + t);
                Thread thread = new Thread(() -> {
                    ByteBuffer target = ByteBuffer.allocateDirect(10_000);
                    byte[] got = new byte[10_000];
                    while (System.nanoTime() < deadline) {
                        int k = random.nextInt(keys);
                        byte[] expected = payload(k);
                        long n = cache.read(keyList.get(k), target);
                        if (n >= 0) {
                            target.get(0, got, 0, (int) n);
                            if (n != expected.length || !Arrays.equals(got, 0, (int) n, expected, 0, expected.length)) {
                                throw new AssertionError("wrong bytes for item-" + k + ": " + n + " bytes");
                            }
                        }
                        if (n < 0 || random.nextInt(10) == 0) {
                            cache.write(keyList.get(k), ByteBuffer.wrap(expected));
                        }
                        ops.incrementAndGet();
                    }
                }, "hammer-" + t);
                thread.setUncaughtExceptionHandler((th, e) -> {
                    synchronized (failures) {
                        failures.add(e);
                    }
                });
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            stats = cache.stats();
        }
        if (!failures.isEmpty()) {
            throw new AssertionError("hammer thread failed", failures.get(0));
        }
        if (stats.corrupt() != 0) {
            throw new AssertionError("damaged entries seen: " + stats);
        }
        System.out.println("ops=" + ops.get() + " hits=" + stats.hits() + " misses=" + stats.misses()
                + " writes=" + stats.writes() + " evictions=" + stats.evictions());
    }
}
