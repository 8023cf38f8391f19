package io.rocket.steal;

import io.rocket.core.trace.Tracer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Idle workers and the steal agent wait for events, not on timers: an idle worker looks for work once and then
 * sleeps until work is made available (counted in its steal attempts, one per look), and wakes when it comes.
 * No wake-up may be lost: every wait here has no timer behind it, so a lost one would hang the test.
 */
class WorkSchedulerWakeupTest {

    /** What an idle worker is allowed to look for work while nothing changes: its first look and a spare. */
    private static final long LOOKS_PER_IDLE_WORKER = 2;

    @Test
    @Timeout(30)
    void idleWorkers_doNotLookForWork_untilItIsGiven_thenRunIt() throws Exception {
        int workers = 3;
        int n = 64;
        CountDownLatch submitted = new CountDownLatch(n * (n - 1) / 2);
        WorkScheduler scheduler = new WorkScheduler(workers, 8, -1, (device, i, j) -> submitted.countDown());
        try (scheduler) {
            scheduler.start(List.of(), Tracer.NOOP);
            Thread.sleep(300); // idle: a polling worker would look hundreds of times meanwhile
            long idleLooks = scheduler.stats().localAttempts();
            assertThat(idleLooks).as("steal attempts of %d idle workers", workers)
                    .isLessThanOrEqualTo(workers * LOOKS_PER_IDLE_WORKER);

            scheduler.give(List.of(Region.root(n))); // as a steal from another node hands over work
            assertThat(submitted.await(20, TimeUnit.SECONDS)).as("every pair of the given region submitted").isTrue();
            scheduler.finish();
            scheduler.await();
        }
    }

    @Test
    @Timeout(30)
    void releasingTheBacklog_wakesTheWorkers() throws Exception {
        int n = 100;
        List<StartShares.Part> share = StartShares.parts(n, 8, 1, 0, 25);
        long pairs = (long) n * (n - 1) / 2;
        CountDownLatch submitted = new CountDownLatch((int) pairs);
        WorkScheduler[] holder = new WorkScheduler[1];
        WorkScheduler scheduler = new WorkScheduler(2, 8, pairs, (device, i, j) -> {
            submitted.countDown();
            holder[0].pairDone();
        });
        holder[0] = scheduler;
        scheduler.holdBacklog(true);
        try (scheduler) {
            scheduler.start(share, Tracer.NOOP);
            Thread.sleep(200);
            assertThat(submitted.getCount()).as("nothing runs while the backlog is held").isEqualTo(pairs);
            assertThat(scheduler.stats().localAttempts()).isLessThanOrEqualTo(2 * LOOKS_PER_IDLE_WORKER);
            scheduler.holdBacklog(false);
            scheduler.await(); // the last pair ends the run: no timer needed to notice
        }
        assertThat(submitted.getCount()).isZero();
    }

    @Test
    @Timeout(30)
    void theWatcher_isRungWhenTheNodeRunsOutOfRegionsToStart() throws Exception {
        int n = 120;
        long pairs = (long) n * (n - 1) / 2;
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong count = new AtomicLong();
        WorkScheduler[] holder = new WorkScheduler[1];
        WorkScheduler scheduler = new WorkScheduler(2, 8, -1, (device, i, j) -> {
            if (count.incrementAndGet() == pairs) {
                try {
                    release.await(); // the last leaf stays in flight until the watcher has seen the node want work
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        holder[0] = scheduler;
        Wakeup watcher = new Wakeup();
        scheduler.watch(watcher);
        try (scheduler) {
            scheduler.start(StartShares.parts(n, 8, 1, 0, 30), Tracer.NOOP);
            // As the steal agent does: park until the node has no region left to start (the last leaf running).
            boolean wants = watcher.await(scheduler::wantsWork, Long.MAX_VALUE);
            assertThat(wants).isTrue();
            assertThat(scheduler.position()).isEqualTo(Backlog.DONE);
            // Woken only where a deque emptied or the backlog moved: a few times per part, not on a timer.
            assertThat(watcher.parks()).isLessThan(200);
            release.countDown();
            scheduler.finish();
            scheduler.await();
        }
    }

    @Test
    @Timeout(10)
    void aRingBeforeThePark_isNotLost() {
        Wakeup wakeup = new Wakeup();
        boolean[] ready = {false};
        Thread ringer = new Thread(() -> {
            while (!wakeup.waiting()) {
                Thread.onSpinWait();
            }
            synchronized (ready) {
                ready[0] = true;
            }
            wakeup.ring();
        });
        ringer.start();
        boolean woke = wakeup.await(() -> {
            synchronized (ready) {
                return ready[0];
            }
        }, Long.MAX_VALUE);
        assertThat(woke).isTrue();
        assertThat(wakeup.waiting()).isFalse();
    }
}
