package io.rocket.steal;

import io.rocket.core.RocketException;
import io.rocket.core.exec.ThreadKind;
import io.rocket.core.trace.Tracer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;

/**
 * Divide-and-conquer scheduling of the pair matrix on one node: one worker thread per device, each with a
 * {@link WorkDeque}. A worker splits its deepest region along the Hilbert curve until it reaches a leaf of
 * {@code tileSize} (a band of the cache-aware order it lays out as its {@link BandOrder} says), then submits the
 * leaf's pairs to its device. An idle worker steals the largest region of a sibling before it begins a new part of
 * the node's {@link Backlog}, so the node's devices work in the same place and share what its L2 holds. The run ends
 * when every pair has been reported done.
 *
 * <p>Nothing here polls. An idle worker parks until work may have turned up (a region pushed on a deque, regions
 * given by another node, the backlog released, the end of the run); whoever makes the work available wakes it, and
 * only when some worker is idle, so a busy node pays one volatile read per region for it, never anything per pair.
 * A {@link #watch watcher} (the cluster's steal agent) is woken the same way when the node may have run out of
 * regions to start or its window changed.
 */
public final class WorkScheduler implements AutoCloseable {
    /** Rung by no one and waited on by no one: the watcher until {@link #watch} sets one. */
    private static final Wakeup NO_WATCHER = new Wakeup();
    /**
     * Leaves per worker counted as still running in {@link #claims()}: the one being submitted and those before it
     * whose pairs may still be in the device's job slots.
     */
    private static final int RECENT_LEAVES = 4;

    private final int tileSize;
    private final PairSubmitter submitter;
    private final List<WorkDeque> deques = new ArrayList<>();
    private final List<Thread> workers = new ArrayList<>();
    private final AtomicLong remaining;
    private final CountDownLatch done = new CountDownLatch(1);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final StealStats stats = new StealStats();
    private final boolean externalTermination;
    private final Backlog backlog = new Backlog();
    /** Per worker, the last leaves it submitted (a ring): their pairs may still be in flight. */
    private final Region[][] recentLeaves;
    private volatile UpcomingItems upcoming = UpcomingItems.NONE;
    private volatile BandOrder bands;
    private volatile IntConsumer windowListener;
    /** The highest window {@link #entered}, -1 before the first. */
    private int windowEntered = -1;
    private volatile boolean holdBacklog;
    private volatile boolean stopping;
    /** Per worker, where it parks while it finds no work, and the condition it waits for (made once). */
    private final Wakeup[] idle;
    private final BooleanSupplier[] workFor;
    /** Workers parked or about to park: ringing them costs nothing while none is. */
    private final AtomicInteger idleWorkers = new AtomicInteger();
    private volatile Wakeup watcher = NO_WATCHER;

    /**
     * @param totalPairs pairs this scheduler ends after, or -1 when the run's end is decided elsewhere (a cluster
     *                   run, ended by {@link #finish()})
     */
    public WorkScheduler(int workers, int tileSize, long totalPairs, PairSubmitter submitter) {
        if (tileSize < 1) {
            throw new IllegalArgumentException("tile size must be >= 1");
        }
        this.tileSize = tileSize;
        this.submitter = submitter;
        this.externalTermination = totalPairs < 0;
        this.remaining = new AtomicLong(totalPairs);
        for (int w = 0; w < workers; w++) {
            deques.add(new WorkDeque());
        }
        this.recentLeaves = new Region[workers][RECENT_LEAVES];
        this.bands = BandOrder.forTile(tileSize);
        this.idle = new Wakeup[workers];
        this.workFor = new BooleanSupplier[workers];
        for (int w = 0; w < workers; w++) {
            int id = w;
            idle[w] = new Wakeup();
            workFor[w] = () -> hasWork(id);
        }
        if (totalPairs == 0) {
            done.countDown();
        }
    }

    /** Where to announce each leaf before its pairs are submitted, and the one after it (for read-ahead). */
    public void upcoming(UpcomingItems value) {
        upcoming = value;
    }

    /**
     * Called with each window of the node's share when its first part is begun, on that worker's thread, in
     * increasing order (set before {@link #start}): a cluster band tells the L2 which rows to keep.
     */
    public void onWindow(IntConsumer listener) {
        windowListener = listener;
    }

    /** Once per part taken from the backlog (not per pair); synchronized so listeners see windows in order. */
    private synchronized void entered(int window) {
        if (window > windowEntered) {
            windowEntered = window;
            IntConsumer listener = windowListener;
            if (listener != null) {
                listener.accept(window);
            }
        }
    }

    /**
     * Rung (from any thread) whenever this node may have run out of regions to start ({@link #wantsWork},
     * {@link #dequesEmpty}) or its {@link #position} changed: a deque emptied, or a part of the backlog was taken.
     * Set before {@link #start}.
     */
    public void watch(Wakeup value) {
        watcher = value;
    }

    /** How this node lays out the bands it runs (set before {@link #start}). */
    public void bands(BandOrder value) {
        bands = value;
    }

    /** Puts {@code root} on worker 0 (the others steal from it) and starts the workers. */
    public void start(Region root, Tracer tracer) {
        if (root.hasPairs()) {
            deques.get(0).push(root);
        }
        startWorkers(tracer);
    }

    /**
     * Starts the workers on a cluster node's share: they take its parts front to back (see {@link Backlog}), all of
     * them near the same place on the curve, since they share the node's L2 and, in a cluster, the other nodes walk
     * the same windows.
     */
    public void start(List<StartShares.Part> share, Tracer tracer) {
        backlog.addAll(share);
        startWorkers(tracer);
    }

    private void startWorkers(Tracer tracer) {
        for (int w = 0; w < deques.size(); w++) {
            int id = w;
            Thread thread = new Thread(() -> {
                tracer.nameThread("worker " + id);
                work(id);
            }, "rocket-" + ThreadKind.WORKER.id() + "-" + w);
            thread.setDaemon(true);
            workers.add(thread);
            thread.start();
        }
    }

    private void work(int id) {
        WorkDeque own = deques.get(id);
        try {
            while (!stopping && done.getCount() > 0) {
                Region region = own.pop();
                if (region != null) {
                    took(own);
                } else {
                    region = stealLocal(id);
                }
                if (region == null && !holdBacklog) {
                    region = backlog.takeFront(bands);
                    if (region != null) {
                        entered(backlog.takenWindow());
                        watcher.ring();
                    }
                }
                if (region == null) {
                    idle(id);
                    continue;
                }
                run(id, own, region);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            abort(t);
        }
    }

    /**
     * Parks worker {@code id} until it may find work. No timeout: every change that can give it work rings it
     * ({@link #workArrived}), and it registers as idle before it checks, so a ring cannot fall between its check and
     * its park.
     */
    private void idle(int id) throws InterruptedException {
        idleWorkers.incrementAndGet();
        try {
            idle[id].await(workFor[id], Long.MAX_VALUE);
        } finally {
            idleWorkers.decrementAndGet();
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }

    /**
     * Whether worker {@code id} would find a region now, or should stop: exactly what its loop tries (its own deque,
     * a sibling's top region, the backlog unless held), so a woken worker neither misses work nor spins on work it
     * cannot take.
     */
    private boolean hasWork(int id) {
        if (stopping || done.getCount() == 0 || !deques.get(id).isEmpty()) {
            return true;
        }
        if (deques.size() > 1) {
            for (int w = 0; w < deques.size(); w++) {
                if (w != id && deques.get(w).topPairs() > 0) {
                    return true;
                }
            }
        }
        return !holdBacklog && !backlog.isEmpty();
    }

    /** Wakes the idle workers after work was made available to them; a volatile read while none is idle. */
    private void workArrived() {
        if (idleWorkers.get() > 0) {
            for (Wakeup w : idle) {
                w.ring();
            }
        }
    }

    /** Wakes every worker and the watcher: the run ends. */
    private void wakeAll() {
        for (Wakeup w : idle) {
            w.ring();
        }
        watcher.ring();
    }

    /** A region was taken from {@code deque}: if that emptied it, the node may be out of regions to start. */
    private void took(WorkDeque deque) {
        Wakeup w = watcher;
        if (w.waiting() && deque.isEmpty()) {
            w.ring();
        }
    }

    private void run(int id, WorkDeque own, Region region) throws InterruptedException {
        boolean pushed = false;
        if (region.isBand()) {
            List<Region> leaves = bands.leaves(region);
            if (leaves.isEmpty()) {
                return;
            }
            for (int k = leaves.size() - 1; k > 0; k--) {
                own.push(leaves.get(k));
            }
            pushed = leaves.size() > 1;
            region = leaves.get(0);
        }
        while (!region.isLeaf(tileSize)) {
            List<Region> children = new ArrayList<>(4);
            region.split(children::add);
            for (int k = children.size() - 1; k > 0; k--) {
                own.push(children.get(k));
            }
            pushed |= children.size() > 1;
            region = children.get(0);
        }
        if (pushed) {
            workArrived(); // the band's leaves or the split's children: siblings may steal them
        }
        Region[] recent = recentLeaves[id];
        synchronized (recent) {
            System.arraycopy(recent, 0, recent, 1, recent.length - 1);
            recent[0] = region;
        }
        announce(own, region);
        boolean descending = region.rowsDescending();
        for (int k = 0; k < region.r1() - region.r0() && !stopping; k++) {
            int i = descending ? region.r1() - 1 - k : region.r0() + k;
            for (int j = Math.max(region.c0(), i + 1); j < region.c1() && !stopping; j++) {
                submitter.submit(id, i, j);
            }
        }
    }

    /**
     * Announces the leaf about to run and the first leaf of the region this worker takes next (its own deque's, or
     * the backlog's front), so their files are read while this leaf computes.
     */
    private void announce(WorkDeque own, Region leaf) {
        UpcomingItems to = upcoming;
        if (to == UpcomingItems.NONE) {
            return;
        }
        to.upcoming(leaf.r0(), leaf.r1(), leaf.c0(), leaf.c1());
        Region next = own.peekNext();
        if (next == null && !holdBacklog) {
            next = backlog.peekFront();
        }
        if (next != null) {
            Region first = bands.firstLeaf(next);
            to.upcoming(first.r0(), first.r1(), first.c0(), first.c1());
        }
    }

    /** Takes the largest region among the sibling workers' deques, or null. */
    private Region stealLocal(int thief) {
        if (deques.size() == 1) {
            return null;
        }
        stats.localAttempts.increment();
        int start = ThreadLocalRandom.current().nextInt(deques.size());
        int best = -1;
        long bestPairs = 0;
        for (int k = 0; k < deques.size(); k++) {
            int victim = (start + k) % deques.size();
            if (victim != thief) {
                long pairs = deques.get(victim).topPairs();
                if (pairs > bestPairs) {
                    bestPairs = pairs;
                    best = victim;
                }
            }
        }
        Region stolen = best < 0 ? null : deques.get(best).steal();
        if (stolen != null) {
            stats.localSuccesses.increment();
            took(deques.get(best));
        }
        return stolen;
    }

    /** One pair finished (computed or failed). */
    public void pairDone() {
        if (!externalTermination && remaining.decrementAndGet() == 0) {
            done.countDown();
            wakeAll();
        }
    }

    /** Ends the run (cluster mode: every pair of the whole run is done). */
    public void finish() {
        done.countDown();
        wakeAll();
    }

    /**
     * Whether this node has no region left to start (every worker is idle or on its last leaf): time to ask other
     * nodes. Asking before the workers go idle hides a steal's round trip and the loading of the stolen region's
     * first items behind the last leaf's jobs, instead of leaving the devices idle meanwhile.
     */
    public boolean wantsWork() {
        return done.getCount() > 0 && backlog.isEmpty() && dequesEmpty();
    }

    /** Whether no worker has a region queued: the next region a worker starts comes from the backlog. */
    public boolean dequesEmpty() {
        for (WorkDeque deque : deques) {
            if (!deque.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** The window of the next part of this node's share to begin, or {@link Backlog#DONE} when none is left. */
    public int position() {
        return backlog.position();
    }

    /**
     * While held, workers take no new part from the backlog (they run queued regions, steal from siblings, or wait):
     * a node that is ahead of the cluster holds it while it asks a node behind for work.
     */
    public void holdBacklog(boolean hold) {
        holdBacklog = hold;
        if (!hold) {
            workArrived();
        }
    }

    /** Lends the next part of this node's share to a node that is ahead of it, or nothing. */
    public List<Region> lendFront() {
        Region part = backlog.takeFront();
        if (part == null) {
            return List.of();
        }
        watcher.ring();
        return List.of(part);
    }

    /** Hands regions stolen from another node to this node's workers (spread over the deques). */
    public void give(List<Region> regions) {
        int start = ThreadLocalRandom.current().nextInt(deques.size());
        for (int k = 0; k < regions.size(); k++) {
            deques.get((start + k) % deques.size()).push(regions.get(k));
        }
        workArrived();
    }

    /**
     * Gives work to another node: the last part of the share not yet begun; else the largest region of any worker,
     * and when that is this node's only region, it is split and the thief gets the later half of its children along
     * the curve (the owner keeps the part it would run next). Returns an empty list when there is nothing to give.
     */
    public List<Region> stealForRemote() {
        Region far = backlog.takeBack();
        if (far != null) {
            watcher.ring();
            return List.of(far);
        }
        int best = -1;
        long bestPairs = 0;
        int regions = 0;
        for (int w = 0; w < deques.size(); w++) {
            WorkDeque deque = deques.get(w);
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
        Region region = deques.get(best).steal();
        if (region == null) {
            return List.of();
        }
        if (regions > 1 || region.isLeaf(tileSize)) {
            took(deques.get(best));
            return List.of(region);
        }
        List<Region> children = new ArrayList<>(4);
        region.split(children::add);
        int keep = children.size() / 2;
        for (int k = keep - 1; k >= 0; k--) {
            deques.get(best).pushTop(children.get(k));
        }
        workArrived();
        return List.copyOf(children.subList(keep, children.size()));
    }

    /**
     * Every region this node will still run unless it dies: its share not yet begun, the regions queued on its
     * workers, and the leaves its workers submitted last (their pairs may still be computing). A region in none of
     * these is not this node's business any more. Taken while the node runs, so it may include pairs finished a
     * moment ago, which only makes it larger.
     */
    public List<Region> claims() {
        List<Region> claimed = new ArrayList<>(backlog.regions());
        for (WorkDeque deque : deques) {
            claimed.addAll(deque.regions());
        }
        for (int w = 0; w < recentLeaves.length; w++) {
            claimed.addAll(leavesInFlight(w));
        }
        return claimed;
    }

    /**
     * The leaves {@code worker} submitted last, newest first (the first may still be submitting): where a slow
     * node's outstanding pairs are, for end-game duplication.
     */
    public List<Region> leavesInFlight(int worker) {
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

    /** Pairs in the regions no worker has begun (the share not yet begun and the queued regions). */
    public long unbegunPairs() {
        long pairs = 0;
        for (Region region : backlog.regions()) {
            pairs += region.pairs();
        }
        for (WorkDeque deque : deques) {
            for (Region region : deque.regions()) {
                pairs += region.pairs();
            }
        }
        return pairs;
    }

    /** Pairs not yet reported done. */
    public long remaining() {
        return remaining.get();
    }

    /** Stops the run with an error; {@link #await} rethrows it. */
    public void abort(Throwable error) {
        failure.compareAndSet(null, error);
        stopping = true;
        done.countDown();
        wakeAll();
    }

    /** Waits for every pair, or for an abort. */
    public void await() throws InterruptedException {
        done.await(); // counted down by the last pair, finish() or abort()
        Throwable error = failure.get();
        if (error != null) {
            throw error instanceof RocketException re ? re : new RocketException("run aborted: " + error, error);
        }
    }

    public StealStats stats() {
        return stats;
    }

    @Override
    public void close() {
        stopping = true;
        wakeAll();
        for (Thread worker : workers) {
            worker.interrupt();
            try {
                worker.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
