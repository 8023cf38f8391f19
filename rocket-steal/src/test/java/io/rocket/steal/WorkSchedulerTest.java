package io.rocket.steal;

import io.rocket.core.trace.Tracer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

class WorkSchedulerTest {

    @Property(tries = 40)
    void everyPairSubmittedOnce(@ForAll @IntRange(min = 0, max = 200) int n,
                                @ForAll @IntRange(min = 1, max = 4) int workers,
                                @ForAll @IntRange(min = 1, max = 32) int tile) throws Exception {
        BitSet seen = new BitSet(n * n);
        int[] duplicates = {0};
        WorkScheduler[] holder = new WorkScheduler[1];
        WorkScheduler scheduler = new WorkScheduler(workers, tile, (long) n * (n - 1) / 2, (device, i, j) -> {
            synchronized (seen) {
                if (seen.get(i * n + j)) {
                    duplicates[0]++;
                }
                seen.set(i * n + j);
            }
            holder[0].pairDone();
        });
        holder[0] = scheduler;
        try (scheduler) {
            scheduler.start(Region.root(n), Tracer.NOOP);
            scheduler.await();
        }
        assertThat(duplicates[0]).isZero();
        assertThat(seen.cardinality()).isEqualTo(n * (n - 1) / 2);
    }

    @Test
    @Timeout(30)
    void idleWorkers_stealFromTheOneHoldingTheRoot_andShareTheWork() throws Exception {
        int n = 256;
        AtomicLongArray perWorker = new AtomicLongArray(4);
        WorkScheduler[] holder = new WorkScheduler[1];
        WorkScheduler scheduler = new WorkScheduler(4, 8, (long) n * (n - 1) / 2, (device, i, j) -> {
            perWorker.incrementAndGet(device);
            LockSupport.parkNanos(2_000); // a little work per pair so stealing has time to happen
            holder[0].pairDone();
        });
        holder[0] = scheduler;
        try (scheduler) {
            scheduler.start(Region.root(n), Tracer.NOOP);
            scheduler.await();
        }
        assertThat(scheduler.stats().localSuccesses()).isPositive();
        for (int w = 0; w < 4; w++) {
            assertThat(perWorker.get(w)).as("pairs run by worker %d", w).isPositive();
        }
    }

    @Property(tries = 30)
    void aShare_everyPairSubmittedOnce_byAnyNumberOfWorkers(@ForAll @IntRange(min = 0, max = 150) int n,
                                                           @ForAll @IntRange(min = 1, max = 4) int workers,
                                                           @ForAll @IntRange(min = 1, max = 4) int nodes) throws Exception {
        // One node's scheduler runs the shares of all ranks, as if it had taken over the whole cluster's work.
        List<StartShares.Part> all = new ArrayList<>();
        for (int rank = 0; rank < nodes; rank++) {
            all.addAll(StartShares.parts(n, 8, nodes, rank, 20));
        }
        PairCoverage coverage = new PairCoverage(n);
        WorkScheduler[] holder = new WorkScheduler[1];
        WorkScheduler scheduler = new WorkScheduler(workers, 8, (long) n * (n - 1) / 2, (device, i, j) -> {
            synchronized (coverage) {
                coverage.add(new Region(i, i + 1, j, j + 1, 0));
            }
            holder[0].pairDone();
        });
        holder[0] = scheduler;
        try (scheduler) {
            scheduler.start(all, Tracer.NOOP);
            scheduler.await();
        }
        coverage.assertComplete();
    }

    @Test
    void backlog_lendsItsNextPartToNodesAhead_andItsLastToIdleThieves_andTellsItsWindow() {
        List<StartShares.Part> share = StartShares.parts(200, 8, 4, 1, 25);
        // The backlog is held, so the worker takes nothing: only lending moves it.
        WorkScheduler held = new WorkScheduler(1, 8, -1, (device, i, j) -> { });
        held.holdBacklog(true);
        try (held) {
            held.start(share, Tracer.NOOP);
            assertThat(held.position()).isEqualTo(share.get(0).window());
            assertThat(held.wantsWork()).isFalse();
            assertThat(held.lendFront()).containsExactly(share.get(0).region());
            assertThat(held.position()).isEqualTo(share.get(1).window());
            assertThat(held.stealForRemote()).containsExactly(share.get(share.size() - 1).region());
            for (int k = 1; k < share.size() - 1; k++) {
                assertThat(held.lendFront()).containsExactly(share.get(k).region());
            }
            assertThat(held.lendFront()).isEmpty();
            assertThat(held.position()).isEqualTo(Backlog.DONE);
            assertThat(held.wantsWork()).isTrue();
        }
    }
}
