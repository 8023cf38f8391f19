package io.rocket.runtime;

import io.rocket.steal.BandOrder;
import io.rocket.steal.PairSet;
import io.rocket.steal.Region;
import io.rocket.steal.ScheduleOrder;
import io.rocket.steal.StartShares;
import io.rocket.steal.WorkScheduler;
import io.rocket.core.Application;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.core.summary.PerformanceModel;
import io.rocket.core.summary.RunSummary;
import io.rocket.core.trace.Tracer;
import io.rocket.cluster.ClusterOptions;
import io.rocket.steal.journal.RunJournal;

import java.io.IOException;
import java.util.List;

/**
 * The entry point: runs an {@link Application} over every pair of its keys on this node's devices and returns the
 * run's {@link RunSummary}. Wires the devices, the L1/L2 caches and pipeline, the work-stealing scheduler, the
 * result sink and the tracer, and releases all of them when the run ends. With {@link RocketOptions#journal} it
 * journals the results ({@link RunJournal}) and, resuming, computes only the pairs the journal does not hold. With
 * {@link RocketOptions#reduction} it keeps only the pairs the reduction keeps (see {@link ResultReduction}).
 *
 * <p>The same call runs one node of a cluster run when {@link RocketOptions#cluster} names two or more nodes: every
 * node calls it with the same application and keys and its own rank, and rank 0's sink receives every result (see
 * {@link ClusterRun}). A program therefore needs one code path for both:
 *
 * <pre>{@code
 * RocketOptions options = RocketOptions.defaults();
 * if (hosts.size() > 1) {   // every node's control address, in rank order
 *     options = options.withCluster(ClusterOptions.ofHosts(rank, hosts));
 * }
 * RunSummary summary = Rocket.run(app, keys, options, sink);
 * }</pre>
 */
public final class Rocket {
    private Rocket() {
    }

    /**
     * Computes every pair {@code i < j} of {@code keys}, streaming results to {@code sink}: on this node alone, or,
     * when {@link RocketOptions#isCluster()}, as one node of a cluster run. In a cluster run only rank 0's sink
     * receives results, rank 0 returns the whole cluster's summary and the other ranks their own; the application
     * must then have a {@link Application#resultCodec()}. A cluster whose
     * {@link ClusterOptions#fingerprint() fingerprint} is left empty gets one made of the application's class and the
     * key labels, so that nodes started for different jobs refuse to run together; a caller whose application has
     * settings of its own should put them in the fingerprint itself.
     *
     * @param app     the application
     * @param keys    the items, in the order that fixes their indices
     * @param options the runtime options
     * @param <K>     the item key type
     * @param <R>     the per-pair result type
     * @param sink    where results go (rank 0's only, in a cluster run)
     * @return the run's summary
     * @throws InterruptedException when the calling thread is interrupted while the run goes on
     * @throws RocketException for unusable options or devices (its message is meant for the user)
     */
    public static <K, R> RunSummary run(Application<K, R> app, List<K> keys, RocketOptions options,
                                        ResultSink<K, R> sink) throws InterruptedException {
        if (options.isCluster()) {
            ClusterOptions cluster = options.cluster();
            if (app.resultCodec() == null) {
                throw new RocketException(app.getClass().getName() + " must implement resultCodec() to run on "
                        + "several nodes (its results travel to rank 0)");
            }
            if (cluster.fingerprint() == null || cluster.fingerprint().isEmpty()) {
                cluster = cluster.withFingerprint(fingerprint(app, keys, cluster.partitionedStart()));
            }
            return ClusterRun.run(app, keys, options.withCluster(null), cluster, sink);
        }
        RunSupport.validate(app, options);
        int n = keys.size();
        ResultReduction<K, R> reduction = new ResultReduction<>(app, keys, options);
        try (NodeRun<K, R> node = NodeRun.open(app, keys, options, 0, "rocket " + app.name(), reduction.last(sink),
                true)) {
            long start = node.openedNanos();
            RunJournal<K, R> journal = node.journal();
            PairSet resumed = journal == null || journal.resumed().size() == 0 ? null : journal.resumed();
            long toRun = PerformanceModel.pairs(n) - (resumed == null ? 0 : resumed.size());
            node.skip(resumed);
            node.wire(node.output(), toRun, null, null);
            WorkScheduler scheduler = node.scheduler();
            node.startSampler(null);
            if (journal != null) {
                journal.onFailure(scheduler::abort);
            }
            Tracer tracer = node.tracer();
            if (resumed == null && options.order() == ScheduleOrder.BLOCKED) {
                BandOrder bands = BandOrder.forNode(node.config().hostSlots(), node.devices().size(),
                        options.tileSize());
                scheduler.bands(bands);
                scheduler.start(bands.bands(n).stream().map(band -> new StartShares.Part(band, 0)).toList(), tracer);
            } else if (resumed == null) {
                scheduler.start(Region.root(n), tracer);
            } else {
                scheduler.start(StartShares.missing(resumed, options.tileSize()), tracer);
            }
            scheduler.await();
            node.stopPipeline();
            double wall = (System.nanoTime() - start) / 1e9;
            RunSummary summary = node.summarize(wall, toRun, wall);
            reduction.finish(summary);
            if (journal != null) {
                journal.close();
                journal.addTo(summary);
            }
            node.writeTrace(options.trace());
            return summary;
        } catch (IOException e) {
            throw new RocketException("cannot write trace " + options.trace() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The fingerprint of a cluster run whose caller gave none: a digest of the application's class and name, how
     * the work starts, and the key labels in order.
     */
    static <K> String fingerprint(Application<K, ?> app, List<K> keys, boolean partitionedStart) {
        return ClusterOptions.fingerprint(app.getClass().getName() + "\n" + app.name() + "\n" + keys.size(),
                partitionedStart, keys.stream().map(app::label).toList());
    }
}
