package io.rocket.node;

import io.rocket.cache.CacheRequest;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.HostBuffer;
import io.rocket.core.device.DeviceKernelContext;
import io.rocket.core.trace.TraceEvent;

/**
 * One pair (i, j) through the pipeline: both items pinned where the device reads them (its L1, or the node's L2 in place; loaded if needed), compare on the
 * kernel thread, result copied back on the device-to-host thread, postprocessed on the CPU pool and handed to the
 * sink. The job object, its cache request and its result buffers are pooled per device and reused for the next
 * pair, so a pair allocates nothing in the runtime. Its slots are released as soon as the compare is done.
 *
 * <p>On a device with overlapped steps (cuda) the kernel thread only launches the compare and moves on to the next
 * pair; the device-to-host thread waits for this kernel, then releases the slots and copies the result. Several
 * compares are then queued on the device at once (up to {@code --concurrent-jobs}), so the host's per-pair work no
 * longer leaves the device idle between kernels.
 */
final class PairJob<K, R> extends CacheRequest implements Runnable {
    private enum Stage { COMPARE, COPY_OUT, POSTPROCESS, FAIL }

    private final NodePipeline<K, R> node;
    private final DeviceLane<K, R> lane;
    private final DeviceBuffer resultOnDevice;
    private final HostBuffer resultOnHost;
    /** Null when the device completes each kernel before returning from it (cpu, sim). */
    private final DeviceKernelContext.OverlappedStep overlapped;
    private int i;
    private int j;
    private Stage stage;
    private Throwable error;
    /** Scratch for the items found readable at the grant. */
    private final int[] hits = new int[2];

    PairJob(NodePipeline<K, R> node, DeviceLane<K, R> lane, DeviceBuffer resultOnDevice, HostBuffer resultOnHost) {
        super(2);
        this.node = node;
        this.lane = lane;
        this.resultOnDevice = resultOnDevice;
        this.resultOnHost = resultOnHost;
        this.overlapped = lane.context.newOverlappedStep();
    }

    void start(int i, int j) {
        this.i = i;
        this.j = j;
        this.error = null;
        items(i, j);
        lane.items().acquire(this);
    }

    @Override
    protected void onGranted() {
        lane.items().granted(this, hits);
    }

    @Override
    protected void onSettled() {
        if (anyFailed()) {
            error = error(0) != null ? error(0) : error(1);
            stage = Stage.FAIL;
            node.cpu.execute(this);
        } else {
            stage = Stage.COMPARE;
            lane.kernel.execute(this);
        }
    }

    @Override
    public void run() {
        long start = System.nanoTime();
        switch (stage) {
            case COMPARE -> compare(start);
            case COPY_OUT -> copyOut(start);
            case POSTPROCESS -> postprocess(start);
            case FAIL -> {
                lane.items().release(this);
                finish(false);
            }
        }
    }

    private void compare(long start) {
        if (overlapped != null) {
            launchCompare(start);
            return;
        }
        try {
            lane.context.begin();
            pairStep();
            long cost = lane.context.end();
            node.telemetry.record(TraceEvent.COMPARE, start, System.nanoTime(), cost, i, j);
            stage = Stage.COPY_OUT;
        } catch (Throwable t) {
            error = node.errors().pairError(i, j, "compare", t);
            stage = Stage.FAIL;
        }
        lane.items().release(this);
        if (stage == Stage.FAIL) {
            finishOnCpu();
        } else {
            lane.copyOut.execute(this);
        }
    }

    /**
     * The pair's compare, on the kernel thread: both items readied to read, the result to fill (the L1 slots are
     * readied and read only on this device's kernel thread, so no other thread moves their views' positions), then
     * the result's length set. Run alone or, on an overlapped device, between the step's two events.
     */
    private void pairStep() throws Exception {
        DeviceBuffer left = lane.items().buffer(slot(0));
        DeviceBuffer right = lane.items().buffer(slot(1));
        left.handOverForReading();
        right.handOverForReading();
        resultOnDevice.handOverForWriting();
        resultOnDevice.length(lane.kernels.compare(node.keys.get(i), left, node.keys.get(j), right, resultOnDevice,
                lane.context));
    }

    /** Overlapped: launch only; the slots stay pinned until {@link #copyOut} has seen the kernel finish. */
    private void launchCompare(long start) {
        try {
            overlapped.begin();
            pairStep();
            overlapped.end();
        } catch (Throwable t) {
            error = node.errors().pairError(i, j, "compare", t);
            lane.items().release(this);
            finishOnCpu();
            return;
        }
        node.telemetry.span(TraceEvent.COMPARE, start, System.nanoTime(), i, j);
        stage = Stage.COPY_OUT;
        lane.copyOut.execute(this);
    }

    private void copyOut(long start) {
        if (overlapped != null) {
            try {
                node.telemetry.cost(TraceEvent.COMPARE, overlapped.await());
            } catch (Throwable t) {
                error = node.errors().pairError(i, j, "compare", t);
                lane.items().release(this);
                finishOnCpu();
                return;
            }
            lane.items().release(this);
        }
        long copyStart = overlapped != null ? System.nanoTime() : start;
        lane.device.copyToHost(resultOnDevice, resultOnHost, resultOnDevice.length());
        node.telemetry.record(TraceEvent.COPY_OUT, copyStart, System.nanoTime(), i, j);
        stage = Stage.POSTPROCESS;
        node.cpu.execute(this);
    }

    private void postprocess(long start) {
        R result;
        try {
            resultOnHost.handOverForReading();
            result = node.app.postprocess(node.keys.get(i), node.keys.get(j), resultOnHost);
        } catch (Throwable t) {
            error = node.errors().pairError(i, j, "postprocess", t);
            finish(false);
            return;
        }
        node.telemetry.record(TraceEvent.POSTPROCESS, start, System.nanoTime(), i, j);
        node.deliver(i, j, result);
        finish(true);
    }

    private void finishOnCpu() {
        stage = null;
        node.cpu.execute(() -> finish(false));
    }

    private void finish(boolean ok) {
        int a = i;
        int b = j;
        if (!ok) {
            node.deliverFailure(a, b, error);
        }
        error = null;
        lane.returnJob(this);
        node.pairDone(lane.index, a, b, ok);
    }
}
