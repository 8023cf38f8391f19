package io.rocket.node;

import io.rocket.cache.LruPolicy;
import io.rocket.cache.SlotCache;
import io.rocket.cache.disk.DiskCache;
import io.rocket.cache.disk.DiskKey;
import io.rocket.core.Application;
import io.rocket.core.DiskCaching;
import io.rocket.core.HostBuffer;
import io.rocket.core.InputFiles;
import io.rocket.core.ItemException;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.ResultSink;
import io.rocket.core.device.Device;
import io.rocket.core.device.HostMemory;
import io.rocket.core.exec.ResourceExecutor;
import io.rocket.core.exec.ThreadKind;
import io.rocket.core.summary.CacheStats;
import io.rocket.core.summary.InputTraffic;
import io.rocket.core.trace.Telemetry;
import io.rocket.core.trace.TraceEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * One node's pipeline: the I/O thread(s), the CPU pool, the L2 host cache, the staging buffers and one
 * {@link DeviceLane} per device. A scheduler feeds it pairs with {@link #submit}; it tells a {@link PairListener}
 * when each pair is done and streams results to the {@link ResultSink}. All memory is allocated once: here, or
 * where the memory allows it (plain direct memory) on first use during the run, so the first item starts loading
 * without waiting for buffers the run needs only later.
 */
public final class NodePipeline<K, R> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodePipeline.class);

    static final InputFiles NO_FILES = new InputFiles() {
        @Override
        public int count() {
            return 0;
        }

        @Override
        public Path path(int index) {
            throw new IndexOutOfBoundsException(index);
        }

        @Override
        public ByteBuffer bytes(int index) {
            throw new IndexOutOfBoundsException(index);
        }
    };

    final Application<K, R> app;
    final List<K> keys;
    final ResultSink<K, R> sink;
    final Telemetry telemetry;
    final HostMemory hostMemory;
    final ResourceExecutor io;
    final ResourceExecutor cpu;
    /**
     * Writes items to the disk cache. Its own thread, not the I/O threads: a write comes after parse or preprocess
     * and holds a buffer that the I/O threads may be waiting for (a disk read takes a staging buffer), so running
     * it behind them could close a cycle; this thread waits for nothing but the disk.
     */
    final ResourceExecutor diskWriter;
    final SlotCache<HostBuffer> l2;
    final BufferPool<FileBuffer> files;
    final BufferPool<HostBuffer> hostStaging;
    final LongAdder loads = new LongAdder();
    final InputTraffic traffic = new InputTraffic();
    final ReadAhead readAhead;
    private final List<DeviceLane<K, R>> lanes = new ArrayList<>();
    private final PairListener listener;
    private final PipelineErrors<K> errors;
    private volatile RemoteItems remote;
    private volatile DiskItems disk;
    /** Threads in {@link #awaitIdle}: a returned job tells them only while there are any. */
    private final AtomicInteger idleWaiters = new AtomicInteger();
    private final Object idleMonitor = new Object();

    public NodePipeline(Application<K, R> app, List<K> keys, List<Device> devices, HostMemory hostMemory,
                        PipelineConfig config, ResultSink<K, R> sink, Telemetry telemetry, PairListener listener) {
        this.app = app;
        this.keys = List.copyOf(keys);
        this.errors = new PipelineErrors<>(app, this.keys);
        this.sink = sink;
        this.telemetry = telemetry;
        this.hostMemory = hostMemory;
        this.listener = listener;
        this.l2 = hostCache(app.maxItemBytes(), keys.size(), config.hostSlots(), hostMemory);
        List<FileBuffer> fileBuffers = new ArrayList<>();
        int demandBuffers = config.ioThreads() + config.hostThreads();
        int aheadBuffers = ReadAhead.buffersFor(config.readAheadBytes(), app.maxFileBytes(), keys.size());
        for (int k = 0; k < demandBuffers + aheadBuffers; k++) {
            fileBuffers.add(new FileBuffer((int) app.maxFileBytes()));
        }
        this.files = new BufferPool<>(fileBuffers);
        this.readAhead = new ReadAhead(this, keys.size(), aheadBuffers, demandBuffers);
        this.hostStaging = BufferPool.staging(config.stagingBuffers() + config.hostThreads(),
                () -> hostMemory.allocate(app.maxInputBytes()), hostMemory.allocatesOnFirstUse());
        this.io = new ResourceExecutor("io", ThreadKind.IO, config.ioThreads(), telemetry.tracer());
        this.cpu = new ResourceExecutor("cpu", ThreadKind.CPU, config.hostThreads(), telemetry.tracer());
        this.diskWriter = new ResourceExecutor("disk-write", ThreadKind.IO, 1, telemetry.tracer());
        for (Device device : devices) {
            lanes.add(new DeviceLane<>(this, device, config, telemetry.tracer(), devices.size()));
        }
    }

    /**
     * The L2 cache. Where host memory can be made during the run (plain direct memory) its capacity is a byte budget,
     * the bytes of {@code slots} maximal items, and each item takes the space its actual size needs; pinned memory
     * (CUDA nodes) is made once, up front, so there it stays {@code slots} slots of the maximal size.
     */
    static SlotCache<HostBuffer> hostCache(long maxItemBytes, int items, int slots, HostMemory hostMemory) {
        if (hostMemory.allocatesOnFirstUse()) {
            return new SlotCache<>("L2", items, slots * maxItemBytes, maxItemBytes, new HostSlotMemory(hostMemory),
                    new LruPolicy());
        }
        return new SlotCache<>("L2", items, slots, maxItemBytes, s -> hostMemory.allocate(maxItemBytes),
                new LruPolicy(), false);
    }

    /**
     * The scheduler's next leaf, rows {@code [r0, r1)} against columns {@code [c0, c1)}: its items' files are read
     * ahead while the devices compute (see {@link ReadAhead}).
     */
    public void upcoming(int r0, int r1, int c0, int c1) {
        readAhead.hint(r0, r1, c0, c1);
    }

    /** The input files of an item. */
    List<Path> inputFiles(int item) {
        return app.inputFiles(keys.get(item));
    }

    /** Returns a file buffer to the pool, and lets read-ahead use it if it waits for one. */
    void giveFiles(FileBuffer buffer) {
        files.give(buffer);
        readAhead.pump();
    }

    /**
     * Whether the item is in the disk cache, so its files need no reading; otherwise remembers on {@code buffer}
     * the disk key taken before the read. Called on an I/O thread.
     */
    boolean onDisk(int item, List<Path> paths, FileBuffer buffer) throws IOException {
        DiskItems d = disk;
        if (d == null) {
            return false;
        }
        DiskKey key = d.key(app.label(keys.get(item)), paths);
        if (d.contains(key)) {
            return true;
        }
        buffer.diskKey(key);
        return false;
    }

    /**
     * Sets the L4 level: items of job {@code job} (the application and its options) kept in {@code cache}, in the
     * form the application allows. Call before the first pair; null for none.
     */
    public void diskCache(DiskCache cache, String job) {
        DiskCaching form = app.diskCaching();
        this.disk = cache == null || form == DiskCaching.NONE ? null
                : new DiskItems(cache, job, form, lanes.get(0).device);
    }

    DiskItems disk() {
        return disk;
    }

    /** L4 counters, or null without a disk cache. */
    public CacheStats diskCacheStats() {
        DiskItems d = disk;
        return d == null ? null : d.stats();
    }

    /** Everything the disk cache counted, or an empty map without one. */
    public Map<String, Long> diskCacheFigures() {
        DiskItems d = disk;
        return d == null ? Map.of() : d.figures();
    }

    /** Bytes read from input files per scheme so far (for the trace's counter track). */
    public Map<String, Long> inputBytes() {
        return traffic.bytesByScheme();
    }

    /** Input traffic per scheme over a run of {@code wallSeconds}. */
    public Map<String, InputTraffic.Figures> inputFigures(double wallSeconds) {
        return traffic.figures(wallSeconds);
    }

    /** What read-ahead did, for the summary; empty when it was off. */
    public Map<String, Long> readAheadFigures() {
        return readAhead.enabled() ? readAhead.figures() : Map.of();
    }

    /** Files held ahead now. */
    public int readAheadHeld() {
        return readAhead.held();
    }

    /** Sets the L3 level consulted after an L2 miss (cluster runs); null for none. Call before the first pair. */
    public void remote(RemoteItems value) {
        this.remote = value;
    }

    RemoteItems remote() {
        return remote;
    }

    /** This node's L2 cache, which the L3 level serves from. */
    public SlotCache<HostBuffer> hostCache() {
        return l2;
    }

    public int deviceCount() {
        return lanes.size();
    }

    /**
     * Starts pair (i, j) on device {@code device}, first waiting while that device has its limit of jobs in
     * flight. Called by the device's worker thread.
     */
    public void submit(int device, int i, int j) throws InterruptedException {
        DeviceLane<K, R> lane = lanes.get(device);
        lane.takeJob().start(i, j);
    }

    /**
     * Pairs a tile of {@code device} should hold now: tens of milliseconds of compares at the cost of a pair in the
     * device's recent tiles, plus the mean postprocess (one until a tile was timed), so that cheap pairs go a leaf to
     * a tile and expensive ones a pair at a time; at most what the run's {@code tilePairs} allows and a tile holds.
     */
    public int pairsPerTile(int device) {
        DeviceLane<K, R> lane = lanes.get(device);
        double compare = lane.recentPairNanos();
        double pairNanos = compare < 0 ? compare : compare + 1e9 * telemetry.meanSeconds(TraceEvent.POSTPROCESS);
        return PairTile.pairsPerTask(pairNanos, lane.tilePairs);
    }

    /**
     * Most columns of one tile row of {@code device} (see {@link TilePacker}); 0 when the device runs every pair as
     * a job (the run asked for one pair a tile, or an L1 too small to pin a row).
     */
    public int tileSpan(int device) {
        return lanes.get(device).tileSpan;
    }

    /** Takes a free tile of {@code device}, waiting while its tiles are all in flight. Called by its worker. */
    PairTile<K, R> takeTile(int device) throws InterruptedException {
        return lanes.get(device).takeTile();
    }

    /** Gives back a tile taken with {@link #takeTile} and never submitted. */
    void returnTile(int device, PairTile<K, R> tile) {
        lanes.get(device).returnTile(tile);
    }

    /**
     * Runs the tile's pairs as one task on the device's kernel thread once its items are readable where the device
     * reads them, loading those it lacks ({@link PairTile}); the tile goes back to its pool once its results are
     * delivered. Called by the device's worker thread; does not wait.
     */
    void submitTile(int device, PairTile<K, R> tile) {
        if (tile.size() == 0) {
            lanes.get(device).returnTile(tile);
        } else {
            tile.submit();
        }
    }

    void pairDone(int device, int i, int j, boolean ok) {
        listener.pairDone(device, i, j, ok);
    }

    void deliver(int i, int j, R result) {
        try {
            sink.accept(i, j, keys.get(i), keys.get(j), result);
        } catch (RuntimeException e) {
            LOG.error("result sink failed for pair ({}, {})", i, j, e);
            errors.countPairError();
        }
    }

    void deliverFailure(int i, int j, Throwable error) {
        errors.countPairError();
        try {
            sink.failed(i, j, keys.get(i), keys.get(j), error);
        } catch (RuntimeException e) {
            LOG.error("result sink failed for pair ({}, {})", i, j, e);
        }
    }

    /** Items that failed to load and pairs that failed: the errors every pair with them carries. */
    PipelineErrors<K> errors() {
        return errors;
    }

    /** The key of an item. */
    public K key(int item) {
        return keys.get(item);
    }

    /** Items that failed to load, by index. */
    public Map<Integer, ItemException> failures() {
        return errors.failures();
    }

    /** Pairs that ended with an error. */
    public long pairErrors() {
        return errors.pairErrors();
    }

    /** Full loads (file → parse → preprocess) done on this node. */
    public long loads() {
        return loads.sum();
    }

    /** Distinct items this node's pairs needed: every one came through the node's L2 at least once. */
    public java.util.BitSet itemsNeeded() {
        return l2.requestedItems();
    }

    public CacheStats hostCacheStats() {
        return l2.stats();
    }

    /** The caches (L1) of the devices that have one; the others read L2 in place. */
    private List<SlotCache<DeviceBuffer>> deviceCaches() {
        List<SlotCache<DeviceBuffer>> caches = new ArrayList<>();
        for (DeviceLane<K, R> lane : lanes) {
            SlotCache<DeviceBuffer> l1 = lane.items().deviceCache();
            if (l1 != null) {
                caches.add(l1);
            }
        }
        return caches;
    }

    /**
     * L1 counters summed over the devices that have one; all zero where every device reads L2 in place (no L1, no
     * copies).
     */
    public CacheStats deviceCacheStats() {
        CacheStats total = new CacheStats(0, app.maxItemBytes(), 0, 0, 0, 0);
        for (SlotCache<DeviceBuffer> l1 : deviceCaches()) {
            total = total.plus(l1.stats());
        }
        return total;
    }

    /** Devices with a cache of their own (L1); the others read L2 in place. */
    public int devicesWithCaches() {
        return deviceCaches().size();
    }

    /** The items one device cache (L1) holds at once, the smallest over the devices that have one; 0 if none. */
    public long deviceCacheSlots() {
        return deviceCaches().stream().mapToLong(SlotCache::maximalItems).min().orElse(0);
    }

    /**
     * What the node's memory holds, by kind: the L2's items (bytes for its slots of maximal items, a byte budget's
     * total), the node's staging buffers for parsed items, and the L1s and staging buffers of devices with memory of
     * their own (0 where every device reads L2 in place), with the count of devices that read L2 in place.
     */
    public Map<String, Long> memoryFigures() {
        long item = app.maxItemBytes();
        long input = app.maxInputBytes();
        long deviceCache = 0;
        long deviceStaging = 0;
        long inPlace = 0;
        for (DeviceLane<K, R> lane : lanes) {
            SlotCache<?> l1 = lane.items().deviceCache();
            if (l1 == null) {
                inPlace++;
            } else {
                deviceCache += l1.maximalItems() * item;
                deviceStaging += lane.staging.size() * input;
            }
        }
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        m.put("host_cache_bytes", l2.maximalItems() * item);
        m.put("host_staging_bytes", hostStaging.size() * input);
        m.put("device_cache_bytes", deviceCache);
        m.put("device_staging_bytes", deviceStaging);
        m.put("devices_reading_in_place", inPlace);
        return m;
    }

    /** Every executor of the node, for busy-time figures. */
    public List<ResourceExecutor> executors() {
        List<ResourceExecutor> all = new ArrayList<>(List.of(io, cpu, diskWriter));
        for (DeviceLane<K, R> lane : lanes) {
            all.addAll(lane.executors());
        }
        return all;
    }

    /** Busy seconds of each device's kernel thread. */
    public List<Double> deviceBusySeconds() {
        return lanes.stream().map(l -> l.kernel.busyNanos() / 1e9).toList();
    }

    /** Checks caches and pools after a run: nothing referenced, loading or lent out. */
    public void checkQuiescent() {
        try {
            readAhead.drain();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while read-ahead drained", e);
        }
        l2.checkInvariants(true);
        deviceCaches().forEach(l1 -> l1.checkInvariants(true));
        for (DeviceLane<K, R> lane : lanes) {
            if (!lane.idle() || lane.staging != null && !lane.staging.allReturned()) {
                throw new IllegalStateException(lane.device.name() + ": jobs or staging buffers not returned");
            }
        }
        if (!files.allReturned() || !hostStaging.allReturned()) {
            throw new IllegalStateException("host staging buffers not returned");
        }
    }

    /**
     * Waits until every pair job is back in its pool, at most {@code timeoutMillis}; returns whether they all came
     * back. A cluster node whose run ends while it still has jobs in flight (duplicates of another node's pairs, say)
     * calls this after its workers stopped and before {@link #close}: a job crosses several executors, and closing
     * them under it would fail its next step.
     */
    public boolean awaitIdle(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        // Registered before the check: a job returned after it sees the waiter and notifies (see jobReturned).
        idleWaiters.incrementAndGet();
        try {
            synchronized (idleMonitor) {
                while (!allIdle()) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    idleMonitor.wait(Math.max(1, left / 1_000_000));
                }
                return true;
            }
        } finally {
            idleWaiters.decrementAndGet();
        }
    }

    private boolean allIdle() {
        for (DeviceLane<K, R> lane : lanes) {
            if (!lane.idle()) {
                return false;
            }
        }
        return true;
    }

    /**
     * A job came back to {@code lane}'s pool. Wakes {@link #awaitIdle} when that lane is now idle; costs a volatile
     * read per job while nobody waits.
     */
    void jobReturned(DeviceLane<K, R> lane) {
        if (idleWaiters.get() > 0 && lane.idle()) {
            synchronized (idleMonitor) {
                idleMonitor.notifyAll();
            }
        }
    }

    /** Stops the threads after queued work drains. */
    @Override
    public void close() {
        readAhead.stop();
        for (DeviceLane<K, R> lane : lanes) {
            lane.close();
        }
        io.close();
        cpu.close();
        diskWriter.close();
    }
}
