package io.rocket.cache.disk;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.rocket.cache.disk.Payloads.bytes;
import static io.rocket.cache.disk.Payloads.copy;
import static io.rocket.cache.disk.Payloads.key;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Threads of one process share the directory through two instances (so the in-process lock, not only the file
 * lock, is exercised), writing and reading the same and different keys with evictions going on; every hit must
 * return the bytes its key stands for.
 */
class DiskCacheConcurrencyTest {
    private static final int KEYS = 24;
    private static final int THREADS = 6;
    private static final int OPS = 400;

    @TempDir
    Path dir;

    static int size(int k) {
        return 2000 + (k * 7919) % 6000;
    }

    @Test
    void threadsWritingAndReadingOverlappingKeys_onlyEverSeeWholeEntries() throws Exception {
        long limit = 12 * 6000L;
        AtomicLong hits = new AtomicLong();
        try (DiskCache first = DiskCache.open(dir, limit); DiskCache second = DiskCache.open(dir, limit)) {
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                DiskCache cache = t % 2 == 0 ? first : second;
                long seed = t;
                done.add(pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    ByteBuffer target = ByteBuffer.allocateDirect(8000);
                    for (int op = 0; op < OPS; op++) {
                        // Threads favour a few shared keys, so the same entry is often written and read at once.
                        int k = random.nextInt(4) == 0 ? random.nextInt(3) : random.nextInt(KEYS);
                        byte[] expected = bytes(k, size(k));
                        long n = cache.read(key("item-" + k), target);
                        if (n >= 0) {
                            assertThat(n).isEqualTo(expected.length);
                            assertThat(copy(target, 0, (int) n)).isEqualTo(expected);
                            hits.incrementAndGet();
                        }
                        if (n < 0 || random.nextInt(8) == 0) {
                            cache.write(key("item-" + k), ByteBuffer.wrap(expected));
                        }
                    }
                    return null;
                }));
            }
            pool.shutdown();
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
            for (Future<?> f : done) {
                f.get();
            }
            assertThat(first.stats().corrupt() + second.stats().corrupt()).isZero();
            assertThat(first.stats().evictions() + second.stats().evictions()).isPositive();
        }
        assertThat(hits.get()).isPositive();
        assertThat(Payloads.entryBytes(dir)).isLessThanOrEqualTo(limit);
        assertThat(Payloads.tempFiles(dir)).isEmpty();
    }
}
