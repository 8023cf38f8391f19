package io.rocket.steal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The regions a node's workers have queued, one {@link WorkDeque} per worker, and the leaves each submitted last:
 * what a sibling or another node can steal, and what the node still claims. Every change that makes work available
 * or may leave the node without a region to start rings the {@link WorkerWakeups} it was given.
 */
final class WorkerDeques {
    /**
     * Leaves per worker counted as still running in {@link #addClaims}: the one being submitted and those before it
     * whose pairs may still be in the device's job slots.
     */
    private static final int RECENT_LEAVES = 4;

    private final WorkDeque[] deques;
    /** Per worker, the last leaves it submitted (a ring): their pairs may still be in flight. */
    private final Region[][] recentLeaves;
    private final StealStats stats = new StealStats();
    private final WorkerWakeups wakeups;

    WorkerDeques(int workers, WorkerWakeups wakeups) {
        this.deques = new WorkDeque[workers];
        for (int w = 0; w < workers; w++) {
            deques[w] = new WorkDeque();
        }
        this.recentLeaves = new Region[workers][RECENT_LEAVES];
        this.wakeups = wakeups;
    }

    /** The number of workers (and deques). */
    int count() {
        return deques.length;
    }

    /** The deque of {@code worker}, which it pushes to and pops from. */
    WorkDeque of(int worker) {
        return deques[worker];
    }

    /** The local steal attempts and successes so far. */
    StealStats stats() {
        return stats;
    }

    /** Whether {@code worker} would find a region here now: on its own deque, or on top of a sibling's. */
    boolean canTake(int worker) {
        if (!deques[worker].isEmpty()) {
            return true;
        }
        if (deques.length > 1) {
            for (int w = 0; w < deques.length; w++) {
                if (w != worker && deques[w].topPairs() > 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether no worker has a region queued. */
    boolean allEmpty() {
        for (WorkDeque deque : deques) {
            if (!deque.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Takes the largest region among the sibling workers' deques for {@code thief}, or null. The siblings are looked
     * at from a random one on, so that equal regions are not always taken from the same worker.
     */
    Region stealLocal(int thief) {
        if (deques.length == 1) {
            return null;
        }
        stats.localAttempts.increment();
        int start = ThreadLocalRandom.current().nextInt(deques.length);
        int best = -1;
        long bestPairs = 0;
        for (int k = 0; k < deques.length; k++) {
            int victim = (start + k) % deques.length;
            if (victim != thief) {
                long pairs = deques[victim].topPairs();
                if (pairs > bestPairs) {
                    bestPairs = pairs;
                    best = victim;
                }
            }
        }
        Region stolen = best < 0 ? null : deques[best].steal();
        if (stolen != null) {
            stats.localSuccesses.increment();
            wakeups.regionTaken(deques[best]);
        }
        return stolen;
    }

    /** Spreads {@code regions} over the deques, from a random one on, and wakes the idle workers. */
    void give(List<Region> regions) {
        int start = ThreadLocalRandom.current().nextInt(deques.length);
        for (int k = 0; k < regions.size(); k++) {
            deques[(start + k) % deques.length].push(regions.get(k));
        }
        wakeups.workArrived();
    }

    /**
     * Takes work for another node: the largest region of any worker; when that is the only region queued, it is
     * split and the thief gets the later half of its children along the curve (the owner keeps the part it would run
     * next, on top of its deque). Returns an empty list when no region is queued.
     */
    List<Region> stealForRemote(int tileSize) {
        int best = -1;
        long bestPairs = 0;
        int regions = 0;
        for (int w = 0; w < deques.length; w++) {
            WorkDeque deque = deques[w];
            regions += deque.size();
            long pairs = deque.topPairs();
            if (pairs > bestPairs) {
                bestPairs = pairs;
                best = w;
            }
        }
        if (best < 0) {
            return List.of();
        }
        Region region = deques[best].steal();
        if (region == null) {
            return List.of();
        }
        if (regions > 1 || region.isLeaf(tileSize)) {
            wakeups.regionTaken(deques[best]);
            return List.of(region);
        }
        List<Region> children = new ArrayList<>(4);
        region.split(children::add);
        int keep = children.size() / 2;
        for (int k = keep - 1; k >= 0; k--) {
            deques[best].pushTop(children.get(k));
        }
        wakeups.workArrived();
        return List.copyOf(children.subList(keep, children.size()));
    }

    /** Records that {@code worker} is about to submit the pairs of {@code leaf} (once per leaf, never per pair). */
    void submitting(int worker, Region leaf) {
        Region[] recent = recentLeaves[worker];
        synchronized (recent) {
            System.arraycopy(recent, 0, recent, 1, recent.length - 1);
            recent[0] = leaf;
        }
    }

    /** The leaves {@code worker} submitted last, newest first (see {@link WorkScheduler#leavesInFlight}). */
    List<Region> leavesInFlight(int worker) {
        Region[] recent = recentLeaves[worker];
        List<Region> leaves = new ArrayList<>(recent.length);
        synchronized (recent) {
            for (Region leaf : recent) {
                if (leaf != null) {
                    leaves.add(leaf);
                }
            }
        }
        return leaves;
    }

    /** Adds the regions queued on every deque, then every worker's {@link #leavesInFlight}, to {@code claimed}. */
    void addClaims(List<Region> claimed) {
        for (WorkDeque deque : deques) {
            claimed.addAll(deque.regions());
        }
        for (int w = 0; w < recentLeaves.length; w++) {
            claimed.addAll(leavesInFlight(w));
        }
    }

    /** Pairs in the regions queued on every deque. */
    long queuedPairs() {
        long pairs = 0;
        for (WorkDeque deque : deques) {
            for (Region region : deque.regions()) {
                pairs += region.pairs();
            }
        }
        return pairs;
    }
}
