package io.rocket.runtime;

import io.rocket.core.UsageException;
import io.rocket.cache.disk.DiskCache;
import io.rocket.node.NodePipeline;
import io.rocket.node.PipelineConfig;
import io.rocket.core.Application;
import io.rocket.core.CacheSize;
import io.rocket.core.ItemException;
import io.rocket.core.RocketException;
import io.rocket.core.device.Device;
import io.rocket.core.device.DirectHostMemory;
import io.rocket.core.exec.ResourceExecutor;
import io.rocket.core.summary.CacheStats;
import io.rocket.core.summary.InputTraffic;
import io.rocket.core.summary.PerformanceModel;
import io.rocket.core.summary.RunSummary;
import io.rocket.core.trace.Telemetry;
import io.rocket.core.trace.TraceEvent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What single-node and cluster runs share: option checks, turning cache sizes into slot counts, and the summary
 * of one node's pipeline. Runtime-internal; applications call {@link Rocket}.
 */
final class RunSupport {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RunSupport.class);
    private RunSupport() {
    }

    /** Checks the application's sizes and the options; a RocketException names what is wrong. */
    public static void validate(Application<?, ?> app, RocketOptions o) {
        if (app.maxItemBytes() <= 0 || app.maxInputBytes() < 0 || app.maxResultBytes() < 0 || app.maxFileBytes() < 0) {
            throw new RocketException(app.name() + ": item, input, file and result sizes must be positive");
        }
        if (app.maxItemBytes() > Integer.MAX_VALUE - 8 || app.maxFileBytes() > Integer.MAX_VALUE - 8) {
            throw new RocketException(app.name() + ": items and files are limited to 2 GiB each");
        }
        if (o.hostThreads() < 1 || o.ioThreads() < 0 || o.concurrentJobs() < 1 || o.tileSize() < 1) {
            throw new RocketException("host threads, I/O threads, concurrent jobs and tile size must be at least 1");
        }
        if (o.reduction() != null && o.journal() != null && !o.journal().store()) {
            // A resumed journal keeps its cut-back files, which top-k (written at the end) cannot extend; a store
            // writes its files anew from every stored result, so it can (ResultReduction reduces on rank 0 then).
            throw new UsageException("--top-k, --min-score and --max-score cannot be combined with --journal (they "
                    + "can with --store)");
        }
    }

    /**
     * Turns byte sizes into slot counts (a cache that cannot hold two items is a user error) and chooses the I/O
     * threads when the options leave it to the runtime. The node's memory budget (--host-cache-size in bytes) holds
     * its items and the buffers its parsed items are staged in: L2 gets what the staging buffers leave. Devices that
     * read L2 in place (cpu) take nothing more; a device with memory of its own has its L1 in that memory.
     */
    public static <K> PipelineConfig resolve(Application<K, ?> app, List<K> keys, RocketOptions o, Device device) {
        int n = keys.size();
        long slotBytes = app.maxItemBytes();
        int cap = Math.max(2, n);
        int staging = Math.max(2, Math.min(4, o.concurrentJobs()));
        CacheSize host = o.hostCacheSize() == null ? RocketOptions.DEFAULT_HOST_CACHE : o.hostCacheSize();
        int hostSlots = slots("host cache (--host-cache-size)", itemsBudget(host, stagingBytes(app, staging, o)),
                host, slotBytes, cap, o.hostCacheSize() == null);
        CacheSize l1 = o.deviceCacheSize() == null ? new CacheSize(device.defaultCacheBytes(), -1)
                : o.deviceCacheSize();
        int deviceSlots = slots("device cache (--device-cache-size)", l1, l1, slotBytes, cap,
                o.deviceCacheSize() == null);
        int io = o.ioThreads() != RocketOptions.AUTO_IO_THREADS ? o.ioThreads()
                : remoteInputs(app, keys) ? RocketOptions.REMOTE_IO_THREADS : RocketOptions.LOCAL_IO_THREADS;
        return new PipelineConfig(o.hostThreads(), io, o.concurrentJobs(), hostSlots, deviceSlots, staging,
                o.inputs().readAheadBytes(), o.tilePairs());
    }

    /** Bytes of the node's buffers for parsed items: its staging buffers and one per CPU-pool thread. */
    static long stagingBytes(Application<?, ?> app, int stagingBuffers, RocketOptions o) {
        return (long) (stagingBuffers + o.hostThreads()) * app.maxInputBytes();
    }

    /** What a memory budget in bytes leaves for items after the staging buffers; a size in slots is all items. */
    static CacheSize itemsBudget(CacheSize budget, long stagingBytes) {
        return budget.bytes() < 0 ? budget : new CacheSize(Math.max(0, budget.bytes() - stagingBytes), -1);
    }

    /**
     * Fits the run to the JVM's direct memory ({@code -XX:MaxDirectMemorySize}, by default the heap's maximum), once
     * and before anything is allocated: otherwise allocations fail during the run, and every item that meets one fails
     * with an allocation message that says nothing about the item. Counted: the read buffers of the I/O and CPU threads
     * (always direct), and where host memory is plain direct memory (nodes without GPUs) the parsed-item staging
     * buffers and the host cache's items. A run whose buffers and two items do not fit is refused; a host cache larger
     * than what is left holds what is left, with one warning. Read-ahead buffers are left out: they are allocated as
     * the run goes and bounded by their own budget.
     *
     * @param maxDirectBytes the most direct memory the JVM may allocate
     * @return {@code config}, or the same with a host cache of fewer slots
     */
    static PipelineConfig fitDirectMemory(Application<?, ?> app, PipelineConfig config, boolean hostIsDirect,
                                          long maxDirectBytes) {
        long input = app.maxInputBytes();
        long item = app.maxItemBytes();
        int readBuffers = config.ioThreads() + config.hostThreads();
        // cpu devices read the host cache in place: their memory is counted with the host's, nothing of their own
        int staging = hostIsDirect ? config.stagingBuffers() + config.hostThreads() : 0;
        int items = hostIsDirect ? 2 : 0;
        double fixed = (double) readBuffers * app.maxFileBytes() + (double) staging * input;
        double need = fixed + (double) items * item;
        if (need > maxDirectBytes) {
            throw new RocketException(String.format(Locale.ROOT, "%s: the run's buffers need at least %s of direct "
                            + "memory (%d staging buffers of %s for parsed items, %d read buffers of %s for input "
                            + "files, %d cache items of %s), more than the %s this JVM may allocate; raise "
                            + "-XX:MaxDirectMemorySize (by default the heap size, -Xmx), or size the items smaller (the "
                            + "application's options that size its buffers)",
                    app.name(), megabytes(need), staging, megabytes(input), readBuffers,
                    megabytes(app.maxFileBytes()), items, megabytes(item), megabytes(maxDirectBytes)));
        }
        // A tenth stays free: buffers the cache dropped are returned to the JVM only when the garbage collector runs.
        long room = (long) ((0.9 * maxDirectBytes - fixed) / item);
        if (!hostIsDirect || config.hostSlots() <= room) {
            return config;
        }
        int slots = (int) Math.max(2, room);
        LOG.warn("the host cache of {} items of {} does not fit the {} of direct memory this JVM may allocate beside "
                        + "its buffers: it holds {} items; raise -XX:MaxDirectMemorySize (by default the heap size, "
                        + "-Xmx) to keep more", config.hostSlots(), megabytes(item), megabytes(maxDirectBytes), slots);
        return new PipelineConfig(config.hostThreads(), config.ioThreads(), config.concurrentJobs(), slots,
                config.deviceSlots(), config.stagingBuffers(), config.readAheadBytes(), config.tilePairs());
    }

    private static String megabytes(double bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    /** Whether the first item's files are on remote storage (their file system is not the local one). */
    private static <K> boolean remoteInputs(Application<K, ?> app, List<K> keys) {
        if (keys.isEmpty()) {
            return false;
        }
        for (java.nio.file.Path p : app.inputFiles(keys.get(0))) {
            if (!"file".equals(InputTraffic.scheme(p))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Slots of {@code size} (what the budget {@code given} leaves for items), at least 2 and at most {@code cap}.
     */
    private static int slots(String what, CacheSize size, CacheSize given, long slotBytes, int cap,
                             boolean isDefault) {
        long slots = size.slots(slotBytes);
        if (slots < 2) {
            if (isDefault) {
                return 2;
            }
            String left = size.equals(given) ? "" : " (after " + (given.bytes() - size.bytes())
                    + " bytes of staging buffers for parsed items)";
            throw new RocketException(what + " of " + given + left + " holds " + slots + " slot(s) of " + slotBytes
                    + " bytes (one item each); at least 2 are needed");
        }
        return (int) Math.min(slots, cap);
    }

    /**
     * Opens the disk cache the options ask for and gives it to the pipeline; returns it (to close after the run), or
     * null without one.
     */
    public static DiskCache openDiskCache(Application<?, ?> app, RocketOptions o, NodePipeline<?, ?> pipeline) {
        InputOptions in = o.inputs();
        if (in.diskCache() == null) {
            return null;
        }
        long size = in.diskCacheBytes() > 0 ? in.diskCacheBytes() : DiskCache.defaultSize(in.diskCache());
        DiskCache cache = DiskCache.open(in.diskCache(), size);
        pipeline.diskCache(cache, in.job() != null ? in.job() : app.getClass().getName());
        return cache;
    }

    /**
     * The summary of one node's run of {@code pairsRun} pairs (all of them on a single node, fewer when it resumed a
     * journal; on a cluster node, the pairs it ran), its devices held for {@code heldSeconds} (the wall time, or on
     * a cluster node until its last pair job ended, which may be after the run's last pair was done elsewhere).
     */
    public static <K, R> RunSummary summarize(Application<K, R> app, int n, List<Device> devices,
                                               NodePipeline<K, R> pipeline, Telemetry t, double wall, long pairsRun,
                                               double heldSeconds) {
        RunSummary s = new RunSummary();
        s.app = app.name();
        s.items = n;
        s.errors = pipeline.pairErrors();
        s.pairs = pairsRun - s.errors;
        s.pairsComputed = pairsRun;
        s.wallSeconds = wall;
        s.pairsPerSecond = wall > 0 ? s.pairs / wall : 0;
        s.loads = pipeline.loads();
        s.model(nodeWork(pipeline, t, s.pairs, devices.size() * heldSeconds));
        s.deviceCopies(pipeline.deviceCacheStats().misses(), pipeline.deviceCacheSlots(),
                pipeline.devicesWithCaches());
        s.devices = devices.stream().map(Device::info).toList();
        s.cache.put("device", pipeline.deviceCacheStats());
        s.cache.put("host", pipeline.hostCacheStats());
        s.memory = pipeline.memoryFigures();
        if (pipeline.diskCacheStats() != null) {
            s.cache.put("disk", pipeline.diskCacheStats());
            s.diskCache = pipeline.diskCacheFigures();
        }
        s.inputs = pipeline.inputFigures(wall);
        s.readAhead = pipeline.readAheadFigures();
        for (TraceEvent e : TraceEvent.values()) {
            if (t.count(e) > 0) {
                s.stepSeconds.put(e.displayName().replace(' ', '_'), t.meanSeconds(e));
            }
        }
        Map<String, Double> busy = new LinkedHashMap<>();
        for (ResourceExecutor ex : pipeline.executors()) {
            busy.merge(ex.kind().id(), ex.busyNanos() / 1e9, Double::sum);
        }
        s.busySeconds = busy;
        s.deviceBusySeconds = pipeline.deviceBusySeconds();
        List<RunSummary.Failure> failures = new ArrayList<>();
        for (Map.Entry<Integer, ItemException> f : pipeline.failures().entrySet()) {
            failures.add(new RunSummary.Failure(f.getKey(), app.label(pipeline.key(f.getKey())),
                    f.getValue().getMessage()));
        }
        s.failures = failures;
        return s;
    }

    /**
     * What one node did, for the performance model: a node's fills are its L2 misses (loads, and on a cluster node
     * fetches from other nodes' L2 too), it holds its L2 and every device's L1, and {@code pairs} are the pairs it
     * computed successfully.
     */
    private static PerformanceModel.Work nodeWork(NodePipeline<?, ?> pipeline, Telemetry t, long pairs,
                                                  double deviceSeconds) {
        CacheStats host = pipeline.hostCacheStats();
        return new PerformanceModel.Work(pipeline.itemsNeeded().cardinality(), host.misses(),
                host.slots() + pipeline.deviceCacheStats().slots(), pairs, t.count(TraceEvent.PREPROCESS),
                t.totalSeconds(TraceEvent.PREPROCESS), t.count(TraceEvent.COMPARE), t.totalSeconds(TraceEvent.COMPARE),
                deviceSeconds);
    }
}
