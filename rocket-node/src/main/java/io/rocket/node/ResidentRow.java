package io.rocket.node;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.trace.TraceEvent;

/**
 * Cheap pairs at the speed of a loop: one item against a run of others, all already readable in the device's L1,
 * computed as one task on the device's kernel thread. Several rows of a leaf may share one task, and their column
 * entries: the fewer hand-offs between threads per pair, the closer the runtime comes to a plain loop over the
 * pairs. The worker fills the row ({@link #start}, {@link #item}, {@link #pair}) and
 * pins its items under one lock of the cache; the kernel thread then runs compare, result copy and postprocess of
 * every pair back to back on buffers this row owns, releases the pins under one lock, and hands the row to the CPU
 * pool once, where the results go to the sink and each pair is counted done.
 *
 * <p>Cached items and the application's kernels are still used only on the kernel thread, as in a pair job: the
 * worker only pins and releases slots. Postprocess runs on the kernel thread here because on the host devices this
 * row serves (cpu, sim) it is host work of the same kind as the compare, and a row then needs one result buffer
 * instead of one per pair; the sink, which may write files or stream to another node, stays off the kernel thread.
 *
 * <p>Rows are pooled per device (a few, see {@link DeviceLane}) and reused; a row allocates nothing per pair. Each
 * row is used by one thread at a time: its worker, then the kernel thread, then one CPU-pool thread, each handing it
 * on through an executor's queue.
 */
public final class ResidentRow<K, R> implements Runnable {
    /**
     * Pairs one task may hold at least: a leaf of the default tile (16 x 16, both orientations) with room to spare,
     * so that a leaf whose items fit the L1's share goes to the kernel thread in one hand-off.
     */
    static final int MOST_PAIRS = 1024;

    private final NodePipeline<K, R> node;
    private final DeviceLane<K, R> lane;
    /** The row's items, each entry pinned once (an item in two of a task's rows has two entries). */
    private final int[] items;
    private final int[] slots;
    /** Pair k is (items[left[k]], items[right[k]]). */
    private final int[] left;
    private final int[] right;
    private final Object[] results;
    private final Throwable[] errors;
    private final DeviceBuffer resultOnDevice;
    private final HostBuffer resultOnHost;
    private int itemCount;
    private int pairCount;
    /** Where each row's pairs start ({@link #row}), so that a task that cannot pin can run row by row. */
    private final int[] rowStarts;
    private int rowCount;
    /** Rows before this one went as pair jobs ({@link #dropFirstRow}); pairs from {@link #firstPair} on remain. */
    private int firstRow;
    private int firstPair;
    private boolean computed;

    ResidentRow(NodePipeline<K, R> node, DeviceLane<K, R> lane, int span) {
        this.node = node;
        this.lane = lane;
        this.items = new int[span + 1];
        this.slots = new int[span + 1];
        this.rowStarts = new int[span + 1]; // a row adds at least its own entry
        int pairs = Math.max(2 * span, MOST_PAIRS);
        this.left = new int[pairs];
        this.right = new int[pairs];
        this.results = new Object[pairs];
        this.errors = new Throwable[pairs];
        this.resultOnDevice = lane.device.allocate(node.app.maxResultBytes());
        this.resultOnHost = node.hostMemory.allocate(node.app.maxResultBytes());
    }

    /**
     * Most columns one row of {@code lane} may have, 0 when the lane runs every pair as a job: only devices whose
     * kernels complete before they return and run on the host (cpu, sim), and an L1 large enough that the rows in
     * flight, together, pin at most what it holds at once were every item maximal (its slots, or a byte budget in
     * maximal items: a budget's slot count bounds only the items, and rows pin resident items, so they never ask
     * for room, but they must leave loads room to run).
     */
    static int span(DeviceLane<?, ?> lane, int rows) {
        boolean host = lane.device.kind() == DeviceKind.CPU || lane.device.kind() == DeviceKind.SIM;
        // Short-circuit: a device with overlapped steps (cuda) is not asked to make one here.
        return host && lane.context.newOverlappedStep() == null ? Math.max(0, lane.l1.maximalItems() / rows - 1) : 0;
    }

    /** Empties the task: no items, no pairs. */
    public void start() {
        itemCount = 0;
        pairCount = 0;
        rowCount = 0;
        firstRow = 0;
        firstPair = 0;
        computed = false;
    }

    /**
     * Adds an entry for item {@code i}, pinned with the others when the task is submitted; ask {@link #fits} first.
     * Entries are cheap to share: a leaf's rows with the same columns use the same column entries.
     *
     * @return the entry's index, for {@link #pair}
     */
    public int item(int i) {
        items[itemCount] = i;
        return itemCount++;
    }

    /** Marks where a row's pairs start: the pairs added from now on are the next row's. */
    public void row() {
        rowStarts[rowCount++] = pairCount;
    }

    /** Adds the pair (item of entry {@code first}, item of entry {@code second}); ask {@link #fits} first. */
    public void pair(int first, int second) {
        left[pairCount] = first;
        right[pairCount++] = second;
    }

    /** Whether {@code newItems} more entries and {@code newPairs} more pairs fit in this task. */
    public boolean fits(int newItems, int newPairs) {
        return itemCount + newItems <= items.length && pairCount + newPairs <= left.length;
    }

    /** Pairs in the task, those of rows already dropped left out. */
    public int size() {
        return pairCount - firstPair;
    }

    /** The first pair that remains: pairs {@code [firstPair(), firstRowEnd())} are the first remaining row's. */
    int firstPair() {
        return firstPair;
    }

    /** The end of the first remaining row's pairs (all remaining pairs when no rows were marked). */
    int firstRowEnd() {
        return firstRow + 1 < rowCount ? rowStarts[firstRow + 1] : pairCount;
    }

    /** Leaves the first remaining row out of this task (its pairs went elsewhere). */
    void dropFirstRow() {
        firstPair = firstRowEnd();
        firstRow++;
    }

    /** The first item of pair {@code k}. */
    public int first(int k) {
        return items[left[k]];
    }

    /** The second item of pair {@code k}. */
    public int second(int k) {
        return items[right[k]];
    }

    /** Pins the row's items when every one is readable in L1 now; false pins nothing. On the worker's thread. */
    boolean pin() {
        if (!lane.l1.pinResident(items, itemCount, slots)) {
            return false;
        }
        node.l2.touchAll(items, itemCount); // L1 hits are uses too: keep L2's recency true to them
        return true;
    }

    @Override
    public void run() {
        if (computed) {
            deliver();
        } else {
            compute();
        }
    }

    /** On the kernel thread: every pair of the row, then the pins go, then the CPU pool delivers. */
    private void compute() {
        boolean traced = node.telemetry.tracer().enabled();
        long rowStart = System.nanoTime();
        long compareCost = 0;
        for (int k = firstPair; k < pairCount; k++) {
            int a = items[left[k]];
            int b = items[right[k]];
            long start = traced ? System.nanoTime() : 0;
            long compared = 0;
            try {
                DeviceBuffer x = lane.l1.buffer(slots[left[k]]);
                DeviceBuffer y = lane.l1.buffer(slots[right[k]]);
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
        lane.l1.unpin(slots, itemCount, 2L * size());
        computed = true;
        node.cpu.execute(this);
    }

    /**
     * On the CPU pool: the results to the sink and each pair counted done. The row goes back to its pool before its
     * last pair is counted, as a pair job does, so a run that ends with that pair finds every row returned.
     */
    @SuppressWarnings("unchecked")
    private void deliver() {
        int n = pairCount; // read once: once returned, the row is its worker's again
        for (int k = firstPair; k < n; k++) {
            int a = items[left[k]];
            int b = items[right[k]];
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
