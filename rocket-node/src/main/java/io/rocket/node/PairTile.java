package io.rocket.node;

import io.rocket.cache.CacheRequest;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.HostBuffer;
import io.rocket.core.Tile;
import io.rocket.core.device.DeviceKernelContext;
import io.rocket.core.trace.TraceEvent;

import java.nio.ByteBuffer;

/**
 * A tile of pairs through the pipeline, on every kind of device: the items of a leaf's rows and columns pinned in the
 * device's L1 together, all the tile's pairs compared in one {@link io.rocket.core.Kernels#compareTile} call, all
 * results brought back in one copy, then postprocessed and delivered. The fewer hand-offs and launches per pair, the
 * closer the runtime comes to a plain loop over the pairs on a cpu and to one matrix product on a GPU.
 *
 * <p>The worker fills the task ({@link #start}, {@link #addItem}, {@link #pair}; see {@link TilePacker}) and submits
 * it: the task asks the device's L1 for all its items as one request, all pinned together or none, and loads those
 * the L1 lacks, as a pair job does for its two. Once every item is readable the kernel thread runs compareTile:
 * <ul>
 *   <li>on a device whose kernels complete before they return (cpu, sim), then the one result copy and every
 *       pair's postprocess, back to back on that thread, as host work of the same kind as the compare; the pins go
 *       under one lock, and the CPU pool delivers (on a device that reads the host cache in place, cpu, the kernel
 *       thread delivers too: the CPU pool's threads are then the node's loads);</li>
 *   <li>on a device with overlapped steps (cuda) it only queues the tile's launches and moves on to the next tile;
 *       the device-to-host thread waits for them, releases the pins and copies every result back at once, and the
 *       CPU pool postprocesses and delivers. Several tiles are in flight per device
 *       ({@link DeviceLane#tileCount}), so launches, copies and postprocessing overlap.</li>
 * </ul>
 * A task never falls back to pair jobs: the pairs of a leaf whose items are still loading wait, as one task, for
 * their loads, while the task before it computes.
 *
 * <p>Tasks are pooled per device and reused; a task allocates nothing per pair: its result buffer and per-pair slices
 * of it are made once. Each task is used by one thread at a time: its worker, then the cache's grant and the loads,
 * then the kernel thread, then (overlapped) the device-to-host thread, then one CPU-pool thread, each handing it on.
 */
public final class PairTile<K, R> extends CacheRequest implements Runnable {
    /**
     * Pairs one task may hold at most: a leaf of the default tile (16 x 16, both orientations) with room to spare,
     * so that a leaf whose items fit the L1's share goes to the kernel thread in one hand-off.
     */
    static final int MOST_PAIRS = 1024;

    /** Most bytes of one task's result buffer: an application with large results gets fewer pairs a task. */
    static final long RESULT_BUFFER_BYTES = 16L << 20;

    /**
     * The compute time a tile aims at. Long enough that its hand-offs (a few thread wake-ups, tens of microseconds)
     * cost nothing and that a kernel which reads each item once per tile gets tiles large enough to pay (forensics NCC
     * on a cpu core reads a 4 MB item in about a millisecond and compares a pair in half of one: a tile of 5 ms
     * would be a few pairs, read mostly for themselves); short enough that the tiles a device has in flight, which no
     * other device can take over, end within a fraction of a second of each other: a leaf of expensive pairs goes as
     * one pair a tile, as pair jobs would, and is not committed to one device as a whole while another runs dry.
     */
    static final long TASK_NANOS = 50_000_000;

    private enum Stage { COMPUTE, COPY_OUT, POSTPROCESS, DELIVER }

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
    private final long stride;
    private final DeviceBuffer resultsOnDevice;
    private final HostBuffer resultsOnHost;
    /** Pair k's result slot in {@link #resultsOnDevice} and in {@link #resultsOnHost}. */
    private final DeviceBuffer[] deviceSlots;
    private final HostBuffer[] hostSlots;
    /** Null when the device completes each kernel before returning from it (cpu, sim). */
    private final DeviceKernelContext.OverlappedStep overlapped;
    private final View view = new View();
    private int pairCount;
    /** The first pairs, whose items all loaded: the tile the kernels see. */
    private int liveCount;
    private Stage stage;

    PairTile(NodePipeline<K, R> node, DeviceLane<K, R> lane, int span, int pairs) {
        super(span + 1);
        this.node = node;
        this.lane = lane;
        this.entries = span + 1;
        this.hits = new int[span + 1];
        this.left = new int[pairs];
        this.right = new int[pairs];
        this.results = new Object[pairs];
        this.errors = new Throwable[pairs];
        this.stride = node.app.maxResultBytes();
        this.resultsOnDevice = lane.device.allocate(stride * pairs);
        this.resultsOnHost = node.hostMemory.allocate(stride * pairs);
        this.deviceSlots = new DeviceBuffer[pairs];
        this.hostSlots = new HostBuffer[pairs];
        ByteBuffer host = resultsOnHost.raw();
        for (int k = 0; k < pairs; k++) {
            deviceSlots[k] = lane.device.slice(resultsOnDevice, k * stride, stride);
            hostSlots[k] = new HostBuffer(host.slice((int) (k * stride), (int) stride).order(host.order()));
        }
        this.overlapped = lane.context.newOverlappedStep();
    }

    /**
     * Pairs one task of a device may hold: {@link #MOST_PAIRS}, fewer when the application's results are so large
     * that their buffer would pass {@link #RESULT_BUFFER_BYTES}; at least 2, so one row piece of either orientation
     * always fits.
     */
    static int pairCapacity(long maxResultBytes) {
        return (int) Math.max(2, Math.min(MOST_PAIRS, RESULT_BUFFER_BYTES / Math.max(1, maxResultBytes)));
    }

    /**
     * Most columns one task of {@code lane} may have, 0 when the lane runs every pair as a job (the run asked for
     * one pair per tile). A task pins at most what the L1 holds at once were every item maximal (its slots, or a
     * byte budget in maximal items: each load reserves a maximal item until it knows the item's size), so a task
     * alone can always be granted; tasks in flight together may ask for more, and then one waits, holding nothing,
     * until another's loads or release make room. Sizing each task by a share of the L1 instead would split a leaf
     * into many small tasks whenever the declared maximum is far above the items' actual sizes, which is when the
     * byte budget holds far more than its maximal items. A row piece of {@code span} columns in both orientations
     * fits one task's {@code pairs}.
     */
    static int span(int maximalItems, int pairs, int tilePairs) {
        if (tilePairs == 1) {
            return 0;
        }
        return Math.max(0, Math.min(maximalItems - 1, pairs / 2));
    }

    /**
     * Pairs a tile should hold: about {@link #TASK_NANOS} of compares and postprocesses at {@code pairNanos} a pair,
     * at least one and at most {@code most}; one while no pair was timed ({@code pairNanos} negative), so the first
     * tiles of an expensive application are not whole leaves.
     */
    static int pairsPerTask(double pairNanos, int most) {
        if (pairNanos < 0) {
            return 1;
        }
        return (int) Math.max(1, Math.min(most, TASK_NANOS / Math.max(1.0, pairNanos)));
    }

    /** Empties the task: no items, no pairs. */
    public void start() {
        clearItems();
        pairCount = 0;
        stage = null;
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
        lane.items().granted(this, hits);
    }

    /** Every item readable or failed: the pairs run on the kernel thread, those with a failed item failing with it. */
    @Override
    protected void onSettled() {
        liveCount = pairCount;
        if (anyFailed()) {
            moveFailedPairsLast();
        }
        stage = Stage.COMPUTE;
        lane.kernel.execute(this);
    }

    /**
     * The pairs with an item that failed to load go after the others, failing with it: the tile the kernels see is
     * the first {@link #liveCount} pairs, their result slots consecutive from the first.
     */
    private void moveFailedPairsLast() {
        int live = 0;
        for (int k = 0; k < pairCount; k++) {
            Throwable failed = error(left[k]) != null ? error(left[k]) : error(right[k]);
            if (failed == null) {
                swap(k, live++);
            } else {
                errors[k] = failed;
            }
        }
        liveCount = live;
    }

    private void swap(int k, int m) {
        if (k != m) {
            int l = left[k];
            int r = right[k];
            Throwable e = errors[k];
            left[k] = left[m];
            right[k] = right[m];
            errors[k] = errors[m];
            left[m] = l;
            right[m] = r;
            errors[m] = e;
        }
    }

    @Override
    public void run() {
        switch (stage) {
            case COMPUTE -> compute();
            case COPY_OUT -> copyOut();
            case POSTPROCESS -> {
                postprocess();
                deliver();
            }
            case DELIVER -> deliver();
        }
    }

    /** On the kernel thread: the tile's compares (launched only, on an overlapped device), then the next stage. */
    private void compute() {
        long start = System.nanoTime();
        for (int k = 0; k < liveCount; k++) {
            deviceSlots[k].handOverForWriting();
        }
        if (overlapped != null) {
            launch(start);
            return;
        }
        if (liveCount > 0) {
            try {
                lane.context.begin();
                lane.kernels.compareTile(view, lane.context);
                long cost = lane.context.end();
                node.telemetry.costs(TraceEvent.COMPARE, liveCount, cost);
                lane.tileCompared(cost, liveCount);
            } catch (Throwable t) {
                failAll("compare", t);
            }
        }
        long compared = System.nanoTime();
        node.telemetry.span(TraceEvent.COMPARE, start, compared, firstItem(), secondItem());
        copyResults(compared);
        postprocess();
        lane.items().release(this, extraLookups());
        if (lane.items().deviceCache() == null) {
            // Read in place (cpu): this thread is a host thread like the CPU pool's, whose threads are the node's
            // loads; delivering here leaves them to loading.
            deliver();
            return;
        }
        stage = Stage.DELIVER;
        node.cpu.execute(this);
    }

    /**
     * Overlapped: queue the tile's kernels and hand the task to the device-to-host thread. A compareTile that
     * throws may have queued some kernels already: its pairs fail, but the pins stay until the stream has passed
     * them, as for a tile that launched.
     */
    private void launch(long start) {
        if (liveCount > 0) {
            try {
                overlapped.begin();
                try {
                    lane.kernels.compareTile(view, lane.context);
                } finally {
                    overlapped.end();
                }
            } catch (Throwable t) {
                failAll("compare", t);
            }
        }
        node.telemetry.span(TraceEvent.COMPARE, start, System.nanoTime(), firstItem(), secondItem());
        stage = Stage.COPY_OUT;
        lane.copyOut.execute(this);
    }

    /** Overlapped, on the device-to-host thread: the tile's kernels done, the pins go, every result comes back. */
    private void copyOut() {
        if (liveCount > 0) {
            try {
                long cost = overlapped.await();
                node.telemetry.costs(TraceEvent.COMPARE, liveCount, cost);
                lane.tileCompared(cost, liveCount);
            } catch (Throwable t) {
                failAll("compare", t);
            }
        }
        lane.items().release(this, extraLookups());
        copyResults(System.nanoTime());
        stage = Stage.POSTPROCESS;
        node.cpu.execute(this);
    }

    /** One copy of every pair's result slot (up to the last pair's), then each host slot's length set to its pair's. */
    private void copyResults(long start) {
        if (liveCount == 0 || stride == 0) {
            return; // nothing computed (every pair's item failed), or results of no bytes
        }
        lane.device.copyToHost(resultsOnDevice, resultsOnHost, liveCount * stride);
        for (int k = 0; k < liveCount; k++) {
            hostSlots[k].length(deviceSlots[k].length());
        }
        node.telemetry.record(TraceEvent.COPY_OUT, start, System.nanoTime(), firstItem(), secondItem());
    }

    /** Every pair's postprocess, back to back, timed as a whole (a clock read per pair is much of a cheap pair). */
    private void postprocess() {
        long start = System.nanoTime();
        for (int k = 0; k < pairCount; k++) {
            if (errors[k] != null) {
                continue;
            }
            int a = item(left[k]);
            int b = item(right[k]);
            try {
                hostSlots[k].handOverForReading();
                results[k] = node.app.postprocess(node.keys.get(a), node.keys.get(b), hostSlots[k]);
            } catch (Throwable t) {
                errors[k] = node.errors().pairError(a, b, "postprocess", t);
            }
        }
        long end = System.nanoTime();
        node.telemetry.costs(TraceEvent.POSTPROCESS, liveCount, end - start);
        node.telemetry.span(TraceEvent.POSTPROCESS, start, end, firstItem(), secondItem());
    }

    /** Two lookups a pair, as pair jobs count them: the grant counted one an entry. */
    private long extraLookups() {
        return Math.max(0, 2L * pairCount - count());
    }

    private void failAll(String step, Throwable t) {
        for (int k = 0; k < pairCount; k++) {
            if (errors[k] == null) {
                errors[k] = node.errors().pairError(item(left[k]), item(right[k]), step, t);
            }
        }
    }

    private int firstItem() {
        return pairCount > 0 ? item(left[0]) : -1;
    }

    private int secondItem() {
        return pairCount > 0 ? item(right[0]) : -1;
    }

    /**
     * On the CPU pool (or the kernel thread, see {@link #compute}): the results to the sink and each pair counted
     * done. The task goes back to its pool before its last pair is counted, as a pair job does, so a run that ends
     * with that pair finds every task returned.
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
                lane.returnTile(this);
                node.pairDone(lane.index, a, b, error == null);
            }
        }
    }

    /** What the application's compareTile sees: the task's entries and pairs, the pairs already failed left out. */
    private final class View implements Tile<K> {
        @Override
        public int items() {
            return count();
        }

        @Override
        public K key(int item) {
            return node.keys.get(PairTile.this.item(item));
        }

        @Override
        public DeviceBuffer item(int item) {
            DeviceBuffer buffer = lane.items().buffer(slot(item));
            buffer.handOverForReading();
            return buffer;
        }

        @Override
        public int pairs() {
            return liveCount;
        }

        @Override
        public int left(int pair) {
            return left[pair];
        }

        @Override
        public int right(int pair) {
            return right[pair];
        }

        @Override
        public DeviceBuffer result(int pair) {
            return deviceSlots[pair];
        }

        @Override
        public DeviceBuffer results() {
            return resultsOnDevice;
        }

        @Override
        public long resultStride() {
            return stride;
        }

        @Override
        public void fail(int pair, Throwable cause) {
            if (errors[pair] == null) {
                errors[pair] = node.errors().pairError(PairTile.this.item(left[pair]),
                        PairTile.this.item(right[pair]), "compare", cause);
            }
        }
    }
}
