package io.rocket.node;

import io.rocket.cache.CacheRequest;
import io.rocket.cache.Grant;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.trace.Telemetry;
import io.rocket.core.trace.TraceEvent;

/**
 * Cheap pairs at the speed of a loop: one item against a run of others, computed as one task on the device's
 * kernel thread. Several rows of a leaf may share one task, and their column entries: the fewer hand-offs between
 * threads per pair, the closer the runtime comes to a plain loop over the pairs. The worker fills the task
 * ({@link #start}, {@link #addItem}, {@link #pair}) and {@link #submit}s it: the task asks the device's L1 for all its
 * items as one request, all pinned together or none, and loads those the L1 lacks, as a pair job does for its two.
 * Once every item is readable the kernel thread runs compare, result copy and postprocess of every pair back to
 * back on buffers this task owns, releases the pins under one lock, and hands the task to the CPU pool once, where
 * the results go to the sink and each pair is counted done. A task therefore never falls back to pair jobs: the
 * pairs of a leaf whose items are still loading wait, as one task, for their loads, while the task before it
 * computes.
 *
 * <p>Cached items and the application's kernels are still used only on the kernel thread, as in a pair job: the
 * worker only asks for the items. Postprocess runs on the kernel thread here because on the host devices this
 * task serves (cpu, sim) it is host work of the same kind as the compare, and a task then needs one result buffer
 * instead of one per pair. The sink, which may write files or stream to another node, runs on the CPU pool; on a
 * device that reads the host cache in place (cpu) it runs on the kernel thread after the compares, as the CPU pool's
 * threads are then the node's loads, and a result hand-off would only take one of them from loading.
 *
 * <p>Tasks are pooled per device (a few, see {@link DeviceLane}) and reused; a task allocates nothing per pair. Each
 * task is used by one thread at a time: its worker, then the cache's grant and the loads, then the kernel thread,
 * then one CPU-pool thread, each handing it on.
 */
public final class ResidentRow<K, R> extends CacheRequest implements Runnable {
    /**
     * Pairs one task may hold at least: a leaf of the default tile (16 x 16, both orientations) with room to spare,
     * so that a leaf whose items fit the L1's share goes to the kernel thread in one hand-off.
     */
    static final int MOST_PAIRS = 1024;

    /**
     * The compute time a task aims at. Long enough that its hand-offs (a few thread wake-ups, tens of microseconds)
     * cost a few percent at most; short enough that the tasks a device has in flight, which no other device can take
     * over, end within milliseconds of each other: a leaf of expensive pairs goes as one pair a task, as pair jobs
     * would, and is not committed to one device as a whole while another runs dry.
     */
    static final long TASK_NANOS = 5_000_000;

    private final NodePipeline<K, R> node;
    private final DeviceLane<K, R> lane;
    /** Most entries: an item in two of a task's rows may have two; entry e is the request's position e. */
    private final int entries;
    /** Pair k is (item(left[k]), item(right[k])). */
    private final int[] left;
    private final int[] right;
    private final Object[] results;
    private final Throwable[] errors;
    /** Scratch for the items found readable at the grant, whose use L2's recency must hear of. */
    private final int[] hits;
    private final DeviceBuffer resultOnDevice;
    private final HostBuffer resultOnHost;
    private int pairCount;
    private boolean computed;

    ResidentRow(NodePipeline<K, R> node, DeviceLane<K, R> lane, int span) {
        super(span + 1);
        this.node = node;
        this.lane = lane;
        this.entries = span + 1;
        this.hits = new int[span + 1];
        int pairs = Math.max(2 * span, MOST_PAIRS);
        this.left = new int[pairs];
        this.right = new int[pairs];
        this.results = new Object[pairs];
        this.errors = new Throwable[pairs];
        this.resultOnDevice = lane.device.allocate(node.app.maxResultBytes());
        this.resultOnHost = node.hostMemory.allocate(node.app.maxResultBytes());
    }

    /**
     * Most columns one task of {@code lane} may have, 0 when the lane runs every pair as a job: only devices whose
     * kernels complete before they return and run on the host (cpu, sim). A task pins at most what the L1 holds at
     * once were every item maximal (its slots, or a byte budget in maximal items: each load reserves a maximal item
     * until it knows the item's size), so a task alone can always be granted; tasks in flight together may ask for
     * more, and then one waits, holding nothing, until another's loads or release make room. Sizing each task by a
     * share of the L1 instead would split a leaf into many small tasks whenever the declared maximum is far above the
     * items' actual sizes, which is when the byte budget holds far more than its maximal items.
     */
    static int span(DeviceLane<?, ?> lane) {
        boolean host = lane.device.kind() == DeviceKind.CPU || lane.device.kind() == DeviceKind.SIM;
        // Short-circuit: a device with overlapped steps (cuda) is not asked to make one here.
        return host && lane.context.newOverlappedStep() == null ? Math.max(0, lane.items().maximalItems() - 1) : 0;
    }

    /**
     * Pairs a task should hold: about {@link #TASK_NANOS} of compares and postprocesses at the mean cost the run has
     * measured so far, at least one; one until a pair was timed, so the first tasks of an expensive application are
     * not whole leaves.
     */
    static int pairsPerTask(Telemetry telemetry) {
        if (telemetry.count(TraceEvent.COMPARE) == 0) {
            return 1;
        }
        double pairNanos = 1e9 * (telemetry.meanSeconds(TraceEvent.COMPARE)
                + telemetry.meanSeconds(TraceEvent.POSTPROCESS));
        return (int) Math.max(1, Math.min(MOST_PAIRS, TASK_NANOS / Math.max(1.0, pairNanos)));
    }

    /** Empties the task: no items, no pairs. */
    public void start() {
        clearItems();
        pairCount = 0;
        computed = false;
    }

    /**
     * Adds an entry for item {@code i}, pinned with the others when the task is submitted; ask {@link #fits} first.
     * Entries are cheap to share: a leaf's rows with the same columns use the same column entries.
     *
     * @return the entry's index, for {@link #pair}
     */
    public int addItem(int i) {
        return add(i);
    }

    /** Adds the pair (item of entry {@code first}, item of entry {@code second}); ask {@link #fits} first. */
    public void pair(int first, int second) {
        left[pairCount] = first;
        right[pairCount++] = second;
    }

    /** Whether {@code newItems} more entries and {@code newPairs} more pairs fit in this task. */
    public boolean fits(int newItems, int newPairs) {
        return count() + newItems <= entries && pairCount + newPairs <= left.length;
    }

    /** Pairs in the task. */
    public int size() {
        return pairCount;
    }

    /**
     * Asks the L1 for the task's items; the task runs on the kernel thread once they are all readable (or failed),
     * now or when loads and room allow. On the worker's thread; does not wait.
     */
    void submit() {
        lane.items().acquire(this);
    }

    /** On the granting thread: the items the L1 lacks start loading; the ones it holds count as uses in L2 too. */
    @Override
    protected void onGranted() {
        int readable = 0;
        for (int p = 0; p < count(); p++) {
            if (grant(p) == Grant.LOAD) {
                lane.items().load(item(p), slot(p));
            } else if (grant(p) == Grant.READY) {
                hits[readable++] = item(p);
            }
        }
        if (readable > 0) {
            lane.items().used(hits, readable);
        }
    }

    /** Every item readable or failed: the pairs run on the kernel thread, those with a failed item failing with it. */
    @Override
    protected void onSettled() {
        if (anyFailed()) {
            for (int k = 0; k < pairCount; k++) {
                Throwable failed = error(left[k]) != null ? error(left[k]) : error(right[k]);
                errors[k] = failed;
            }
        }
        lane.kernel.execute(this);
    }

    @Override
    public void run() {
        if (computed) {
            deliver();
        } else {
            compute();
        }
    }

    /** On the kernel thread: every pair of the task, then the pins go, then the CPU pool delivers. */
    private void compute() {
        boolean traced = node.telemetry.tracer().enabled();
        long rowStart = System.nanoTime();
        long compareCost = 0;
        for (int k = 0; k < pairCount; k++) {
            if (errors[k] != null) {
                continue; // an item of the pair failed to load
            }
            int a = item(left[k]);
            int b = item(right[k]);
            long start = traced ? System.nanoTime() : 0;
            long compared = 0;
            try {
                DeviceBuffer x = lane.items().buffer(slot(left[k]));
                DeviceBuffer y = lane.items().buffer(slot(right[k]));
                x.handOverForReading();
                y.handOverForReading();
                resultOnDevice.handOverForWriting();
                lane.context.begin();
                long length = lane.kernels.compare(node.keys.get(a), x, node.keys.get(b), y, resultOnDevice,
                        lane.context);
                long cost = lane.context.end();
                resultOnDevice.length(length);
                if (traced) {
                    compared = System.nanoTime();
                    node.telemetry.record(TraceEvent.COMPARE, start, compared, cost, a, b);
                } else {
                    compareCost += cost;
                }
                lane.device.copyToHost(resultOnDevice, resultOnHost, length);
                if (traced) {
                    long copied = System.nanoTime();
                    node.telemetry.record(TraceEvent.COPY_OUT, compared, copied, a, b);
                    compared = copied; // postprocess starts here
                }
            } catch (Throwable t) {
                errors[k] = node.errors().pairError(a, b, "compare", t);
                continue;
            }
            try {
                resultOnHost.handOverForReading();
                results[k] = node.app.postprocess(node.keys.get(a), node.keys.get(b), resultOnHost);
                if (traced) {
                    node.telemetry.record(TraceEvent.POSTPROCESS, compared, System.nanoTime(), a, b);
                }
            } catch (Throwable t) {
                errors[k] = node.errors().pairError(a, b, "postprocess", t);
            }
        }
        if (!traced) {
            // Untraced, the row is timed as a whole rather than each step with clocks of its own (three clock reads
            // a pair are a good part of a cheap pair's time): the compares cost what the device says (its time, real
            // or modelled, which the sim device also waits), and the rest of the row's time goes to postprocess.
            long rest = Math.max(0, System.nanoTime() - rowStart - compareCost);
            node.telemetry.costs(TraceEvent.COMPARE, size(), compareCost);
            node.telemetry.costs(TraceEvent.POSTPROCESS, size(), rest);
        }
        // Two lookups a pair, as pair jobs count them: the grant counted one an entry.
        lane.items().release(this, Math.max(0, 2L * pairCount - count()));
        if (lane.items().deviceCache() == null) {
            // Read in place (cpu): this thread is a host thread like the CPU pool's, whose threads are the node's
            // loads; delivering here leaves them to loading.
            deliver();
            return;
        }
        computed = true;
        node.cpu.execute(this);
    }

    /**
     * On the CPU pool: the results to the sink and each pair counted done. The task goes back to its pool before its
     * last pair is counted, as a pair job does, so a run that ends with that pair finds every task returned.
     */
    @SuppressWarnings("unchecked")
    private void deliver() {
        int n = pairCount; // read once: once returned, the task is its worker's again
        for (int k = 0; k < n; k++) {
            int a = item(left[k]);
            int b = item(right[k]);
            Throwable error = errors[k];
            if (error == null) {
                node.deliver(a, b, (R) results[k]);
            } else {
                node.deliverFailure(a, b, error);
            }
            results[k] = null;
            errors[k] = null;
            if (k < n - 1) {
                node.pairDone(lane.index, a, b, error == null);
            } else {
                lane.returnRow(this);
                node.pairDone(lane.index, a, b, error == null);
            }
        }
    }
}
