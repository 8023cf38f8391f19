package io.rocket.steal;

import io.rocket.core.RocketException;
import io.rocket.core.exec.ThreadKind;
import io.rocket.core.trace.Tracer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
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
 *
 * <p>This class runs the workers' loop and the run's life cycle. The workers' deques, and the steals from them, are
 * kept by {@code WorkerDeques}; where idle workers and the watcher wait, and who wakes them, by
 * {@code WorkerWakeups}.
 */
public final class WorkScheduler implements AutoCloseable {
    private final int tileSize;
    private final PairSubmitter submitter;
    private final WorkerWakeups wakeups;
    private final WorkerDeques deques;
    private final List<Thread> workers = new ArrayList<>();
    private final AtomicLong remaining;
    private final CountDownLatch done = new CountDownLatch(1);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final boolean externalTermination;
    private final Backlog backlog = new Backlog();
    private volatile UpcomingItems upcoming = UpcomingItems.NONE;
    private volatile BandOrder bands;
    private volatile IntConsumer windowListener;
    /** The highest window {@link #entered}, -1 before the first. */
    private int windowEntered = -1;
    private volatile boolean holdBacklog;
    private volatile boolean stopping;
    /** Asked between a leaf's rows: whether the run is stopping. */
    private final BooleanSupplier stopped = () -> stopping;

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
        this.wakeups = new WorkerWakeups(workers, this::hasWork);
        this.deques = new WorkerDeques(workers, wakeups);
        this.bands = BandOrder.forTile(tileSize);
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
        wakeups.watch(value);
    }

    /** How this node lays out the bands it runs (set before {@link #start}). */
    public void bands(BandOrder value) {
        bands = value;
    }

    /** Puts {@code root} on worker 0 (the others steal from it) and starts the workers. */
    public void start(Region root, Tracer tracer) {
        if (root.hasPairs()) {
            deques.of(0).push(root);
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
        for (int w = 0; w < deques.count(); w++) {
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
        WorkDeque own = deques.of(id);
        try {
            while (!stopping && done.getCount() > 0) {
                Region region = own.pop();
                if (region != null) {
                    wakeups.regionTaken(own);
                } else {
                    region = deques.stealLocal(id);
                }
                if (region == null && !holdBacklog) {
                    region = backlog.takeFront(bands);
                    if (region != null) {
                        entered(backlog.takenWindow());
                        wakeups.ringWatcher();
                    }
                }
                if (region == null) {
                    wakeups.park(id);
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
     * Whether worker {@code id} would find a region now, or should stop: exactly what its loop tries (its own deque,
     * a sibling's top region, the backlog unless held), so a woken worker neither misses work nor spins on work it
     * cannot take. What an idle worker waits for.
     */
    private boolean hasWork(int id) {
        return stopping || done.getCount() == 0 || deques.canTake(id) || !holdBacklog && !backlog.isEmpty();
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
            wakeups.workArrived(); // the band's leaves or the split's children: siblings may steal them
        }
        deques.submitting(id, region);
        announce(own, region);
        submitter.submitLeaf(id, region.r0(), region.r1(), region.c0(), region.c1(), region.rowsDescending(),
                stopped);
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

    /** One pair finished (computed or failed). */
    public void pairDone() {
        if (!externalTermination && remaining.decrementAndGet() == 0) {
            done.countDown();
            wakeups.wakeAll();
        }
    }

    /** Ends the run (cluster mode: every pair of the whole run is done). */
    public void finish() {
        done.countDown();
        wakeups.wakeAll();
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
        return deques.allEmpty();
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
            wakeups.workArrived();
        }
    }

    /** Lends the next part of this node's share to a node that is ahead of it, or nothing. */
    public List<Region> lendFront() {
        Region part = backlog.takeFront();
        if (part == null) {
            return List.of();
        }
        wakeups.ringWatcher();
        return List.of(part);
    }

    /** Hands regions stolen from another node to this node's workers (spread over the deques). */
    public void give(List<Region> regions) {
        deques.give(regions);
    }

    /**
     * Gives work to another node: the last part of the share not yet begun; else the largest region of any worker,
     * and when that is this node's only region, it is split and the thief gets the later half of its children along
     * the curve (the owner keeps the part it would run next). Returns an empty list when there is nothing to give.
     */
    public List<Region> stealForRemote() {
        Region far = backlog.takeBack();
        if (far != null) {
            wakeups.ringWatcher();
            return List.of(far);
        }
        return deques.stealForRemote(tileSize);
    }

    /**
     * Every region this node will still run unless it dies: its share not yet begun, the regions queued on its
     * workers, and the leaves its workers submitted last (their pairs may still be computing). A region in none of
     * these is not this node's business any more. Taken while the node runs, so it may include pairs finished a
     * moment ago, which only makes it larger.
     */
    public List<Region> claims() {
        List<Region> claimed = new ArrayList<>(backlog.regions());
        deques.addClaims(claimed);
        return claimed;
    }

    /**
     * The leaves {@code worker} submitted last, newest first (the first may still be submitting): where a slow
     * node's outstanding pairs are, for end-game duplication.
     */
    public List<Region> leavesInFlight(int worker) {
        return deques.leavesInFlight(worker);
    }

    /** Pairs in the regions no worker has begun (the share not yet begun and the queued regions). */
    public long unbegunPairs() {
        long pairs = 0;
        for (Region region : backlog.regions()) {
            pairs += region.pairs();
        }
        return pairs + deques.queuedPairs();
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
        wakeups.wakeAll();
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
        return deques.stats();
    }

    @Override
    public void close() {
        stopping = true;
        wakeups.wakeAll();
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
