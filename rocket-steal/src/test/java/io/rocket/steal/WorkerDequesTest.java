package io.rocket.steal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The workers' deques on their own: which region a sibling or another node steals, and what the node claims. */
class WorkerDequesTest {

    private static WorkerDeques deques(int workers) {
        return new WorkerDeques(workers, new WorkerWakeups(workers, worker -> true));
    }

    @Test
    void aSiblingStealsTheLargestTopRegion_neverItsOwn_andTheStealsAreCounted() {
        WorkerDeques deques = deques(3);
        Region small = new Region(0, 4, 4, 8, 0);
        Region large = new Region(0, 16, 16, 32, 0);
        Region mine = new Region(0, 64, 64, 128, 0);
        deques.of(0).push(small);
        deques.of(1).push(large);
        deques.of(2).push(mine);

        assertThat(deques.stealLocal(2)).isEqualTo(large);
        assertThat(deques.stealLocal(2)).isEqualTo(small);
        assertThat(deques.stealLocal(2)).isNull();
        assertThat(deques.of(2).regions()).containsExactly(mine);
        assertThat(deques.stats().localAttempts()).isEqualTo(3);
        assertThat(deques.stats().localSuccesses()).isEqualTo(2);
    }

    @Test
    void aLoneWorker_hasNoSiblingToStealFrom_andCountsNoAttempt() {
        WorkerDeques deques = deques(1);
        deques.of(0).push(Region.root(10));
        assertThat(deques.stealLocal(0)).isNull();
        assertThat(deques.stats().localAttempts()).isZero();
        assertThat(deques.canTake(0)).isTrue();
    }

    @Test
    void aWorkerCanTake_itsOwnRegionsOrASiblingsTop() {
        WorkerDeques deques = deques(2);
        assertThat(deques.canTake(0)).isFalse();
        assertThat(deques.allEmpty()).isTrue();
        deques.of(1).push(Region.root(10));
        assertThat(deques.canTake(0)).isTrue();
        assertThat(deques.canTake(1)).isTrue();
        assertThat(deques.allEmpty()).isFalse();
    }

    @Test
    void anotherNode_getsTheLaterHalfOfTheOnlyRegion_andTheOwnerKeepsTheFirst() {
        int n = 64;
        WorkerDeques deques = deques(2);
        deques.of(1).push(Region.root(n));

        List<Region> stolen = deques.stealForRemote(8);
        List<Region> kept = deques.of(1).regions();
        assertThat(stolen).isNotEmpty();
        assertThat(kept).isNotEmpty();
        // The owner keeps the start of the curve, the thief the rest: together, every pair once.
        List<Region> children = new ArrayList<>();
        Region.root(n).split(children::add);
        assertThat(kept).isEqualTo(children.subList(0, children.size() / 2));
        assertThat(stolen).isEqualTo(children.subList(children.size() / 2, children.size()));
        PairCoverage coverage = new PairCoverage(n);
        kept.forEach(coverage::add);
        stolen.forEach(coverage::add);
        coverage.assertComplete();
    }

    @Test
    void anotherNode_getsTheLargestRegionWhole_whenThereAreSeveral_orALeaf_andNothingWhenNoneIsQueued() {
        WorkerDeques deques = deques(2);
        assertThat(deques.stealForRemote(8)).isEmpty();

        Region small = new Region(0, 8, 8, 16, 0);
        Region large = new Region(0, 32, 32, 64, 0);
        deques.of(0).push(small);
        deques.of(1).push(large);
        assertThat(deques.stealForRemote(8)).containsExactly(large);

        assertThat(deques.stealForRemote(8)).as("the only region, but a leaf").containsExactly(small);
        assertThat(deques.allEmpty()).isTrue();
    }

    @Test
    void theLastFourLeavesOfEachWorker_areInFlight_newestFirst_andClaimedWithTheQueuedRegions() {
        WorkerDeques deques = deques(2);
        List<Region> leaves = new ArrayList<>();
        for (int k = 0; k < 6; k++) {
            Region leaf = new Region(0, 1, k + 1, k + 2, 0);
            leaves.add(leaf);
            deques.submitting(0, leaf);
        }
        assertThat(deques.leavesInFlight(0)).containsExactly(leaves.get(5), leaves.get(4), leaves.get(3),
                leaves.get(2));
        assertThat(deques.leavesInFlight(1)).isEmpty();

        Region queued = new Region(0, 10, 10, 20, 0);
        deques.of(1).push(queued);
        List<Region> claimed = new ArrayList<>();
        deques.addClaims(claimed);
        assertThat(claimed).containsExactly(queued, leaves.get(5), leaves.get(4), leaves.get(3), leaves.get(2));
        assertThat(deques.queuedPairs()).isEqualTo(queued.pairs());
    }

    @Test
    @Timeout(10)
    void givenRegions_areSpreadOverTheDeques_andWakeAnIdleWorker() throws Exception {
        int workers = 3;
        WorkerDeques[] holder = new WorkerDeques[1];
        WorkerWakeups wakeups = new WorkerWakeups(workers, worker -> holder[0].canTake(worker));
        WorkerDeques deques = new WorkerDeques(workers, wakeups);
        holder[0] = deques;
        Thread idle = new Thread(() -> {
            try {
                wakeups.park(0); // no timer: only the ring of give() can end this
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        idle.start();
        deques.give(List.of(new Region(0, 4, 4, 8, 0), new Region(0, 8, 8, 16, 0), new Region(0, 2, 2, 4, 0)));
        idle.join(TimeUnit.SECONDS.toMillis(5));
        assertThat(idle.isAlive()).as("the idle worker still parked").isFalse();
        for (int w = 0; w < workers; w++) {
            assertThat(deques.of(w).size()).as("regions on deque %d", w).isEqualTo(1);
        }
    }
}
