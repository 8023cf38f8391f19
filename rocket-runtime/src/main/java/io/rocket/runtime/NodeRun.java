package io.rocket.runtime;

import io.rocket.steal.PairMask;
import io.rocket.steal.PairSubmitter;
import io.rocket.steal.PairSet;
import io.rocket.steal.PairSpace;
import io.rocket.steal.WorkScheduler;
import io.rocket.cache.disk.DiskCache;
import io.rocket.cluster.l3.L3Stats;
import io.rocket.node.NodePipeline;
import io.rocket.node.PairListener;
import io.rocket.node.PipelineConfig;
import io.rocket.steal.BandOrder;
import io.rocket.core.Application;
import io.rocket.core.ResultSink;
import io.rocket.core.device.Device;
import io.rocket.core.device.DirectHostMemory;
import io.rocket.cluster.NodeStatus;
import io.rocket.runtime.status.JobStatus;
import io.rocket.runtime.status.LiveStatus;
import io.rocket.runtime.status.NodeProbe;
import io.rocket.runtime.status.StatusStart;
import io.rocket.core.device.Devices;
import io.rocket.core.summary.RunSummary;
import io.rocket.core.trace.ChromeTracer;
import io.rocket.core.trace.Telemetry;
import io.rocket.core.trace.Tracer;
import io.rocket.results.journal.ResultLog;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.concurrent.atomic.LongAdder;

/**
 * One node's parts, composed in one place for the single-node run and for every node of a cluster run: its devices
 * and host memory, the tracer, the resolved pipeline configuration, the journal (when this node keeps it), the
 * work-stealing scheduler, the pipeline with its disk cache, and the counter sampler. Built in two steps, because a
 * cluster node needs the configuration to join before it knows where its results go: {@link #open} opens the
 * devices, the tracer and the journal; {@link #wire} builds the scheduler and the pipeline. Every part is
 * registered in one {@link Resources} stack as it is built, and {@link #close} lets go of them in reverse order;
 * a cluster node registers its own layers in the same stack, so they close before the parts they were built on.
 *
 * @param <K> key type
 * @param <R> result type
 */
final class NodeRun<K, R> implements AutoCloseable {
    private final Application<K, R> app;
    private final List<K> keys;
    private final RocketOptions options;
    private final Resources resources;
    private final Devices.Opened opened;
    private final ChromeTracer chrome;
    private final Tracer tracer;
    private final Telemetry telemetry;
    private final PipelineConfig config;
    private final ResultLog<K, R> journal;
    private final LongAdder pairsRun = new LongAdder();
    /** When the devices were open (System.nanoTime): a single-node run's wall time counts from here. */
    private final long openedNanos = System.nanoTime();
    /** Pairs this node skips: outside the run's pair space, or done before it (a resumed journal); null: none. */
    private volatile PairMask skip;
    /** Whether each pair runs in both orientations (an asymmetric f). */
    private final boolean ordered;
    private WorkScheduler scheduler;
    private NodePipeline<K, R> pipeline;
    private DiskCache disk;
    private CounterSampler sampler;
    /** What the status opened before the devices did (endpoint, event log); null when the run shows none. */
    private StatusStart statusStart;

    private NodeRun(Application<K, R> app, List<K> keys, RocketOptions options, Resources resources,
                    Devices.Opened opened, int rank, String processName, ResultSink<K, R> sink, boolean keepJournal,
                    PairSpace space) {
        this.app = app;
        this.keys = keys;
        this.options = options;
        this.resources = resources;
        this.opened = opened;
        this.ordered = app.ordered();
        this.chrome = options.trace() == null ? null : new ChromeTracer(rank, processName);
        this.tracer = chrome == null ? Tracer.NOOP : chrome;
        this.telemetry = new Telemetry(tracer);
        this.config = RunSupport.fitDirectMemory(app, RunSupport.resolve(app, keys, options, opened.devices().get(0)),
                opened.hostMemory().allocatesOnFirstUse(), DirectHostMemory.maxDirectBytes());
        this.journal = keepJournal && options.journal() != null
                ? ResultLog.open(options.journal(), app, keys, space, sink) : null;
        if (journal != null) {
            resources.onClose(journal::closeQuietly); // a failed run keeps the results it journaled
            keepOnExit(journal, resources);
        }
    }

    /**
     * Writes what the journal or store holds when the JVM exits before the run ends (a signal: SIGTERM at a time
     * limit, Ctrl-C), as the end of a failed run does; the hook goes when the node closes.
     */
    private static void keepOnExit(ResultLog<?, ?> journal, Resources resources) {
        Thread hook = new Thread(journal::closeQuietly, "rocket-journal-exit");
        Runtime.getRuntime().addShutdownHook(hook);
        resources.onClose(() -> {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs, or has run
            }
        });
    }

    /**
     * Opens a node's devices, tracer and (when {@code keepJournal} and the options ask for one) journal; on failure
     * closes what it opened.
     *
     * @param rank        the node's rank, the trace's process id
     * @param processName the trace's name for this node
     * @param sink        where the run's results go (through the journal when there is one)
     * @param space       the run's pairs: a result store replays the stored pairs of this space only
     */
    public static <K, R> NodeRun<K, R> open(Application<K, R> app, List<K> keys, RocketOptions options, int rank,
                                            String processName, ResultSink<K, R> sink, boolean keepJournal,
                                            PairSpace space) {
        // Logging configures itself on first use (logback parses its XML: a few hundred ms in a fresh JVM): do that
        // now, before the run's clock starts, rather than in the middle of the first pairs.
        LoggerFactory.getILoggerFactory();
        // The same for the JVM's management beans, which the direct-memory limit is read from (tens of ms to load).
        DirectHostMemory.maxDirectBytes();
        Resources resources = new Resources();
        // Before the run's clock too: what the status opens costs the same whatever the run's length.
        StatusStart statusStart = StatusStart.open(options.status(), rank == 0);
        if (statusStart != null) {
            resources.add(statusStart);
        }
        Devices.Opened opened;
        try {
            opened = Devices.open(options.device());
        } catch (RuntimeException | Error e) {
            closeAfter(resources, e);
            throw e;
        }
        resources.onClose(() -> {
            for (Device device : opened.devices()) {
                device.close();
            }
            opened.hostMemory().close();
        });
        try {
            NodeRun<K, R> node = new NodeRun<>(app, keys, options, resources, opened, rank, processName, sink,
                    keepJournal, space);
            node.statusStart = statusStart;
            return node;
        } catch (RuntimeException | Error e) {
            closeAfter(resources, e);
            throw e;
        }
    }

    /**
     * Builds the scheduler and the pipeline (with the disk cache the options ask for).
     *
     * @param results      where the pipeline writes results: the head of the node's result chain ({@link ResultChain})
     * @param totalPairs   pairs after which the scheduler ends, or -1 when the run's end is decided elsewhere
     * @param beforeSubmit runs before each pair not skipped goes to the pipeline (it may block), or null
     * @param afterPair    told when each pair job of this node ends, or null
     */
    public void wire(ResultSink<K, R> results, long totalPairs, PairSubmitter beforeSubmit, PairListener afterPair) {
        resources.onClose(this::closeDisk); // after the pipeline, whose disk writer may still be writing
        RowSubmitter<K, R> rows = new RowSubmitter<>(() -> skip, ordered, beforeSubmit);
        WorkScheduler work = new WorkScheduler(opened.devices().size(), options.tileSize(), totalPairs, rows);
        boolean counted = totalPairs >= 0;
        pipeline = resources.add(new NodePipeline<>(app, keys, opened.devices(), opened.hostMemory(), config,
                results, telemetry, (device, i, j, ok) -> {
                    pairsRun.increment();
                    if (counted) {
                        work.pairDone();
                    }
                    if (afterPair != null) {
                        afterPair.pairDone(device, i, j, ok);
                    }
                }));
        rows.pipeline(pipeline);
        scheduler = resources.add(work);
        work.upcoming(pipeline::upcoming);
        disk = RunSupport.openDiskCache(app, options, pipeline);
    }

    /**
     * Skips {@code done} from now on: the pairs outside the run's space and those resumed from a journal
     * ({@link io.rocket.steal.PairSpace#done}); null skips nothing. Taken as it is now: later changes to the set are
     * not seen.
     */
    public void skip(PairSet done) {
        skip = done == null ? null : done.mask();
    }

    /**
     * Opens what this node shows of itself while it runs ({@link LiveStatus}), when the options ask for it or
     * {@code always}; closed with the node, before the sampler that ticks it is (it is opened first).
     *
     * @param rank    this node's rank
     * @param always  whether to sample even when the options ask for nothing (a cluster node reports to rank 0)
     * @param publish where this node's figures go when they changed
     * @param job     makes the job's view on rank 0 (it returns null on another rank); called only when the status
     *                opens, so a run without one does not even load its classes
     * @param cluster what only a cluster node has, or null
     * @return the live status, or null when there is none
     */
    public LiveStatus openStatus(int rank, boolean always, Consumer<NodeStatus> publish, Supplier<JobStatus> job,
                                 NodeProbe.Cluster cluster) {
        if (statusStart == null && !always) {
            return null;
        }
        NodeProbe probe = new NodeProbe(rank, pipeline, opened.devices(), this::pairsRun,
                () -> scheduler.stats().localSuccesses(), cluster);
        return resources.add(new LiveStatus(statusStart == null ? StatusStart.NONE : statusStart, probe, publish,
                job.get()));
    }

    /**
     * Starts the node's sampler when the run is traced (cache counters into the trace, with the L3's when given) or
     * shows its status (ticked about once a second).
     *
     * @param l3     the distributed cache's counters, or null
     * @param status the live status, or null
     */
    public void startSampler(L3Stats l3, LiveStatus status) {
        if ((chrome != null || status != null) && sampler == null) {
            sampler = resources.add(new CounterSampler(pipeline, chrome, l3, status == null ? null : status::tick));
        }
    }

    /** Aligns this node's trace clock with the run's start on rank 0. */
    public void alignTrace(long startEpochMillis) {
        if (chrome != null) {
            chrome.clockOffsetNanos(chrome.originEpochNanos() - startEpochMillis * 1_000_000L);
        }
    }

    /**
     * Ends a run whose pairs are all done: stops the workers and the pipeline, checks that nothing is left in it, and
     * stops the sampler (which takes its last sample).
     */
    public void stopPipeline() {
        scheduler.close();
        pipeline.close();
        pipeline.checkQuiescent();
        if (sampler != null) {
            sampler.close();
        }
    }

    /**
     * The summary of this node's pairs: see {@link RunSupport#summarize}.
     *
     * @param pairs       the pairs it ran
     * @param heldSeconds how long it held its devices
     */
    public RunSummary summarize(double wall, long pairs, double heldSeconds) {
        return RunSupport.summarize(app, keys.size(), opened.devices(), pipeline, telemetry, wall, pairs,
                heldSeconds);
    }

    /** Writes the trace to {@code file} when the run is traced. */
    public void writeTrace(Path file) throws IOException {
        if (chrome != null) {
            chrome.write(file);
        }
    }

    /** When the devices were open, before the journal was (a resumed journal's replay is part of the run). */
    public long openedNanos() {
        return openedNanos;
    }

    public List<Device> devices() {
        return opened.devices();
    }

    public PipelineConfig config() {
        return config;
    }

    public Tracer tracer() {
        return tracer;
    }

    /**
     * The blocked order for this node's caches: bands sized to L2, stream leaves to the devices' L1s (or to reading
     * L2 in place). A {@code --tile-size} other than the default sets the stream leaves' width itself, a quarter tile.
     */
    public BandOrder bandOrder(int tileSize) {
        int devices = opened.devices().size();
        if (tileSize != RocketOptions.DEFAULT_TILE_SIZE) {
            return BandOrder.forNode(config.hostSlots(), devices, tileSize);
        }
        boolean inPlace = opened.devices().stream().allMatch(Device::readsHostMemory);
        return BandOrder.forNode(config.hostSlots(), devices, tileSize, inPlace ? 0 : config.deviceSlots());
    }

    public Telemetry telemetry() {
        return telemetry;
    }

    /** The journal this node keeps, or null. */
    public ResultLog<K, R> journal() {
        return journal;
    }


    public WorkScheduler scheduler() {
        return scheduler;
    }

    public NodePipeline<K, R> pipeline() {
        return pipeline;
    }

    /** Pair jobs this node has finished (computed or failed), duplicates included. */
    public long pairsRun() {
        return pairsRun.sum();
    }

    /** The stack this node's parts close from; a cluster node registers its own layers here. */
    public Resources resources() {
        return resources;
    }

    private void closeDisk() {
        if (disk != null) {
            disk.close();
        }
    }

    @Override
    public void close() {
        resources.close();
    }

    private static void closeAfter(Resources resources, Throwable failure) {
        try {
            resources.close();
        } catch (RuntimeException | Error e) {
            failure.addSuppressed(e);
        }
    }
}
