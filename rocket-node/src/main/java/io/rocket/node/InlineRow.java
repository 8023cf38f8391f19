package io.rocket.node;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.trace.TraceEvent;

/**
 * Cheap pairs at the speed of a loop: one item against a run of others, all already in the device's L1, computed
 * on the worker's own thread. Compare, the result copy, postprocess and the hand-off to the sink run one after the
 * other with no queue between them, on buffers this object owns, so a pair costs the application's own work plus a
 * few counters; the run's items are pinned (and later released) under one lock of the cache.
 *
 * <p>Only for devices whose kernels complete before they return and run on the host (cpu, sim). While a row runs
 * inline, the lane has no pair job in flight: the worker is the only one who submits to its lane, and it waits for
 * the lane to drain before its first inline row after queued jobs. The kernels, their context and the L1 slots'
 * views are then the worker's alone, as they are the kernel thread's otherwise. Used by one thread at a time.
 */
final class InlineRow<K, R> {
    private final NodePipeline<K, R> node;
    private final DeviceLane<K, R> lane;
    /** Most columns in one inline row: half the L1, so a pinned row never starves the loads of other jobs. */
    private final int span;
    private final int[] items;
    private final int[] slots;
    private DeviceBuffer resultOnDevice;
    private HostBuffer resultOnHost;
    private int rowItem;
    private int firstColumn;
    private int pinned;
    private long pairs;
    private long busyNanos;

    InlineRow(NodePipeline<K, R> node, DeviceLane<K, R> lane) {
        this.node = node;
        this.lane = lane;
        boolean host = lane.device.kind() == DeviceKind.CPU || lane.device.kind() == DeviceKind.SIM;
        // Short-circuit: a device with overlapped steps (cuda) is not asked to make one here.
        this.span = host && lane.context.newOverlappedStep() == null ? Math.max(0, lane.l1.slots() / 2 - 1) : 0;
        this.items = new int[span + 1];
        this.slots = new int[span + 1];
    }

    /** Most columns one row may have, 0 when this device runs no pair inline. */
    int span() {
        return span;
    }

    /**
     * Pins item {@code i} and items {@code [c0, c1)} when all of them are readable in L1, waiting for the lane's
     * jobs in flight to end first; returns false (pinning nothing) when one of them is not there.
     */
    boolean open(int i, int c0, int c1) throws InterruptedException {
        int n = c1 - c0 + 1;
        if (n > items.length || n < 2) {
            return false;
        }
        items[0] = i;
        for (int c = c0; c < c1; c++) {
            items[1 + c - c0] = c;
        }
        if (!lane.l1.pinResident(items, n, slots)) {
            return false;
        }
        if (!lane.idle()) {
            // Unpinned while waiting: a job in flight may need the slots to load its items.
            lane.l1.unpin(slots, n, 0);
            node.awaitIdle(lane);
            if (!lane.l1.pinResident(items, n, slots)) {
                return false;
            }
        }
        if (resultOnDevice == null) {
            resultOnDevice = lane.device.allocate(node.app.maxResultBytes());
            resultOnHost = node.hostMemory.allocate(node.app.maxResultBytes());
        }
        node.l2.touchAll(items, n); // L1 hits are uses too: keep L2's recency true to them
        rowItem = i;
        firstColumn = c0;
        pinned = n;
        return true;
    }

    private int slotOf(int item) {
        return slots[item == rowItem ? 0 : 1 + item - firstColumn];
    }

    /** Computes pair (a, b) of the open row (either orientation) and hands its result to the sink. */
    void run(int a, int b) {
        long start = System.nanoTime();
        long end;
        try {
            DeviceBuffer left = lane.l1.buffer(slotOf(a));
            DeviceBuffer right = lane.l1.buffer(slotOf(b));
            left.handOverForReading();
            right.handOverForReading();
            resultOnDevice.handOverForWriting();
            lane.context.begin();
            long length = lane.kernels.compare(node.keys.get(a), left, node.keys.get(b), right, resultOnDevice,
                    lane.context);
            long cost = lane.context.end();
            resultOnDevice.length(length);
            lane.device.copyToHost(resultOnDevice, resultOnHost, length);
            end = System.nanoTime();
            node.telemetry.record(TraceEvent.COMPARE, start, end, cost, a, b);
        } catch (Throwable t) {
            failed(a, b, node.pairError(a, b, "compare", t), start);
            return;
        }
        R result;
        try {
            resultOnHost.handOverForReading();
            result = node.app.postprocess(node.keys.get(a), node.keys.get(b), resultOnHost);
        } catch (Throwable t) {
            failed(a, b, node.pairError(a, b, "postprocess", t), start);
            return;
        }
        long done = System.nanoTime();
        node.telemetry.record(TraceEvent.POSTPROCESS, end, done, a, b);
        busyNanos += end - start;
        pairs++;
        node.deliver(a, b, result);
        node.pairDone(lane.index, a, b, true);
    }

    private void failed(int a, int b, Throwable error, long start) {
        busyNanos += System.nanoTime() - start;
        pairs++;
        node.deliverFailure(a, b, error);
        node.pairDone(lane.index, a, b, false);
    }

    /** Releases the row's items, and credits its compares to the device's kernel time. */
    void close() {
        if (pinned > 0) {
            lane.l1.unpin(slots, pinned, 2 * pairs);
            lane.kernel.credit(busyNanos, pairs);
            pinned = 0;
            pairs = 0;
            busyNanos = 0;
        }
    }
}
