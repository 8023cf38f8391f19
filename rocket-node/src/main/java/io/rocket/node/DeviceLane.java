package io.rocket.node;

import io.rocket.cache.LruPolicy;
import io.rocket.cache.SlotCache;
import io.rocket.core.Application;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.Kernels;
import io.rocket.core.device.Device;
import io.rocket.core.device.DeviceKernelContext;
import io.rocket.core.exec.ResourceExecutor;
import io.rocket.core.exec.ThreadKind;
import io.rocket.core.trace.Tracer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * One device's share of the pipeline: where its kernels find their items ({@link LaneItems}: its L1 cache, or the
 * node's L2 read in place), its kernel and two copy threads, its staging buffers and its pool of pair jobs. The job
 * pool is the concurrent-job limit: a worker that finds it empty waits.
 */
final class DeviceLane<K, R> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DeviceLane.class);

    final int index;
    final Device device;
    final Kernels<K> kernels;
    final DeviceKernelContext context;
    private final LaneItems items;
    final ResourceExecutor kernel;
    final ResourceExecutor copyIn;
    final ResourceExecutor copyOut;
    /** Parsed items copied to the device for preprocess; null where the device reads them in place. */
    final BufferPool<DeviceBuffer> staging;
    /** Most columns of one tile row; 0 when this device runs every pair as a job. */
    final int tileSpan;
    /** Most pairs of one tile. */
    final int tilePairs;
    private final NodePipeline<K, R> node;
    private final ArrayBlockingQueue<PairJob<K, R>> jobs;
    private final List<PairJob<K, R>> allJobs = new ArrayList<>();
    /** Tiles not in flight; empty when tileSpan is 0. */
    private final ArrayBlockingQueue<PairTile<K, R>> tiles;
    private final int tileCount;
    /** See {@link #tileCompared}; written by the thread that learns a tile's cost, read by the worker. */
    private volatile double recentPairNanos = -1;

    /** Tiles per device whose kernels complete before they return (cpu, sim): one computes while the next loads. */
    static final int HOST_TILES = 2;
    /**
     * Tiles per device with overlapped steps (cuda): one being launched, one on the device, one coming back and
     * being postprocessed, one waiting for its items.
     */
    static final int OVERLAPPED_TILES = 4;

    /**
     * @param lanes the node's devices: a lane reading L2 in place takes a share of it
     */
    DeviceLane(NodePipeline<K, R> node, Device device, PipelineConfig config, Tracer tracer, int lanes) {
        Application<K, R> app = node.app;
        this.node = node;
        this.index = device.index();
        this.device = device;
        this.kernels = app.kernels(device.kind());
        this.context = device.kernelContext();
        String id = device.name();
        this.items = device.readsHostMemory() ? new HostItems(node, this, HostItems.shareOf(node.l2, lanes))
                : new DeviceItems(node, this, deviceCache(device, node.keys.size(), config.deviceSlots(),
                app.maxItemBytes()));
        // Read in place, a parsed item is preprocessed where the node staged it: no device staging buffers.
        this.staging = device.readsHostMemory() ? null : BufferPool.staging(config.stagingBuffers(),
                () -> device.allocate(app.maxInputBytes()), device.allocatesOnFirstUse());
        this.jobs = new ArrayBlockingQueue<>(config.concurrentJobs());
        for (int k = 0; k < config.concurrentJobs(); k++) {
            PairJob<K, R> job = new PairJob<>(node, this, device.allocate(app.maxResultBytes()),
                    node.hostMemory.allocate(app.maxResultBytes()));
            allJobs.add(job);
            jobs.add(job);
        }
        this.kernel = new ResourceExecutor(id + " kernel", ThreadKind.KERNEL, 1, tracer);
        // The kernel thread is idle until the first item is parsed: let the kernels build their scratch meanwhile.
        kernel.execute(() -> {
            try {
                kernels.prepare(context);
            } catch (Exception e) {
                LOG.warn("{}: preparing the kernels failed; the steps will report it: {}", id, e.toString());
            }
        });
        this.copyIn = new ResourceExecutor(id + " h2d", ThreadKind.COPY_IN, 1, tracer);
        this.copyOut = new ResourceExecutor(id + " d2h", ThreadKind.COPY_OUT, 1, tracer);
        int capacity = PairTile.pairCapacity(app.maxResultBytes());
        this.tilePairs = config.tilePairs() == 0 ? capacity : Math.min(capacity, config.tilePairs());
        this.tileSpan = PairTile.span(items.maximalItems(), capacity, config.tilePairs());
        this.tileCount = tileSpan == 0 ? 0 : tileCount(context);
        this.tiles = new ArrayBlockingQueue<>(Math.max(1, tileCount));
        for (int k = 0; k < tileCount; k++) {
            tiles.add(new PairTile<>(node, this, tileSpan, capacity));
        }
    }

    /**
     * The L1 cache of {@code device}. Where the device can make buffers during the run and move an item between two
     * of them (cpu, sim) its capacity is a byte budget, the bytes of {@code slots} maximal items, and each item takes
     * the space its actual size needs, as in L2; elsewhere (cuda, whose memory is made once before the run) it is
     * {@code slots} slots of the maximal size.
     */
    static SlotCache<DeviceBuffer> deviceCache(Device device, int items, int slots, long maxItemBytes) {
        String name = "L1 " + device.name();
        if (device.budgetsCache()) {
            return new SlotCache<>(name, items, slots * maxItemBytes, maxItemBytes, new DeviceSlotMemory(device),
                    new LruPolicy());
        }
        return new SlotCache<>(name, items, slots, maxItemBytes, s -> device.allocate(maxItemBytes), new LruPolicy(),
                device.allocatesOnFirstUse());
    }

    /** Where the lane's kernels find their items. */
    LaneItems items() {
        return items;
    }

    /** Takes a free job, waiting while the concurrent-job limit is reached. */
    PairJob<K, R> takeJob() throws InterruptedException {
        return jobs.take();
    }

    void returnJob(PairJob<K, R> job) {
        jobs.add(job);
        node.jobReturned(this);
    }

    /**
     * Tiles in flight on a device: more where its steps overlap, so that launches, copies and postprocessing of
     * consecutive tiles run at once.
     */
    static int tileCount(DeviceKernelContext context) {
        return context.newOverlappedStep() == null ? HOST_TILES : OVERLAPPED_TILES;
    }

    /** Takes a free tile, waiting while every tile is in flight. */
    PairTile<K, R> takeTile() throws InterruptedException {
        return tiles.take();
    }

    void returnTile(PairTile<K, R> tile) {
        tiles.add(tile);
        node.jobReturned(this);
    }

    /**
     * A tile of {@code pairs} pairs compared in {@code nanos}: the lane's recent cost of a pair moves halfway to it.
     * Recent, not the run's mean: a pair in a large tile costs less than one in a small tile (its items are read once
     * for many pairs), so tiles grow as they are measured instead of being held small by the first ones.
     */
    void tileCompared(long nanos, int pairs) {
        if (pairs > 0) {
            double each = (double) nanos / pairs;
            double before = recentPairNanos;
            recentPairNanos = before < 0 ? each : (before + each) / 2;
        }
    }

    /** The recent compare cost of a pair in this lane's tiles, in nanoseconds; negative before the first tile. */
    double recentPairNanos() {
        return recentPairNanos;
    }

    /** Whether every job and every tile is back in its pool. */
    boolean idle() {
        return jobs.size() == allJobs.size() && tiles.size() == tileCount;
    }

    List<ResourceExecutor> executors() {
        return List.of(kernel, copyIn, copyOut);
    }

    @Override
    public void close() {
        kernel.close();
        copyIn.close();
        copyOut.close();
    }
}
