package io.rocket.cache;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many jobs on several threads sharing a tiny cache, with loads on another pool and some items failing: every job
 * must settle, see its own items' data (or their errors), and leave the cache quiescent — no deadlock, no lost
 * wake-up, no slot reused while referenced.
 */
class SlotCacheConcurrencyTest {
    private static final int ITEMS = 40;
    private static final int BAD = 13;

    @Test
    @Timeout(60)
    void manyPairJobs_tinyCache_allSettleWithRightData() throws Exception {
        for (int slots : new int[]{2, 3, 8}) {
            run(slots);
        }
    }

    private void run(int slots) throws Exception {
        SlotCache<long[]> cache = new SlotCache<>("conc", ITEMS, slots, 8, s -> new long[1], new LruPolicy());
        ExecutorService loaders = Executors.newFixedThreadPool(2);
        ExecutorService jobs = Executors.newFixedThreadPool(4);
        Semaphore inFlight = new Semaphore(16);
        int total = 4000;
        AtomicInteger done = new AtomicInteger();
        AtomicLong wrong = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        for (int k = 0; k < total; k++) {
            inFlight.acquire();
            jobs.execute(() -> {
                int i = ThreadLocalRandom.current().nextInt(ITEMS);
                int j = (i + 1 + ThreadLocalRandom.current().nextInt(ITEMS - 1)) % ITEMS;
                CacheRequest request = new CacheRequest(2) {
                    @Override
                    protected void onGranted() {
                        for (int p = 0; p < count(); p++) {
                            if (grant(p) == Grant.LOAD) {
                                int item = item(p);
                                int slot = slot(p);
                                loaders.execute(() -> {
                                    if (item == BAD) {
                                        cache.fail(slot, new IllegalStateException("bad " + item));
                                    } else {
                                        cache.buffer(slot)[0] = item * 1000L;
                                        cache.publish(slot);
                                    }
                                });
                            }
                        }
                    }

                    @Override
                    protected void onSettled() {
                        for (int p = 0; p < count(); p++) {
                            boolean bad = item(p) == BAD;
                            if (bad != (error(p) != null)) {
                                wrong.incrementAndGet();
                            }
                            if (!bad && cache.buffer(slot(p))[0] != item(p) * 1000L) {
                                wrong.incrementAndGet();
                            }
                        }
                        if (anyFailed()) {
                            failed.incrementAndGet();
                        }
                        cache.release(this);
                        done.incrementAndGet();
                        inFlight.release();
                    }
                };
                request.items(i, j);
                cache.acquire(request);
            });
        }
        inFlight.acquire(16);
        jobs.shutdown();
        loaders.shutdown();
        assertThat(jobs.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(loaders.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(done.get()).isEqualTo(total);
        assertThat(wrong.get()).as("jobs that saw wrong data with %d slots", slots).isZero();
        assertThat(failed.get()).isPositive();
        cache.checkInvariants(true);
    }
}
