package io.rocket.runtime;

import io.rocket.steal.BandOrder;
import io.rocket.steal.PairSet;
import io.rocket.steal.PairSpace;
import io.rocket.steal.ScheduleOrder;
import io.rocket.steal.SpaceStarts;
import io.rocket.steal.WorkScheduler;
import io.rocket.core.Application;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.core.summary.RunSummary;
import io.rocket.cluster.NodeStatus;
import io.rocket.runtime.status.JobStatus;
import io.rocket.runtime.status.LiveStatus;
import io.rocket.core.trace.Tracer;
import io.rocket.cluster.ClusterOptions;
import io.rocket.results.journal.ResultLog;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The entry point: runs an {@link Application} over every pair of its keys on this node's devices and returns the
 * run's {@link RunSummary}. Wires the devices, the L1/L2 caches and pipeline, the work-stealing scheduler, the
 * result sink and the tracer, and releases all of them when the run ends. With {@link RocketOptions#journal} it
 * keeps the results in a journal or a result store ({@link ResultLog}) and computes only the pairs that holds not.
 * With {@link RocketOptions#reduction} it keeps only the pairs the reduction keeps (see {@link ResultReduction}).
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
        return run(app, keys, PairSpace.triangle(keys.size()), options, sink);
    }

    /**
     * Computes the pairs of {@code space} (queries against references, listed pairs, a union of spaces; see
     * {@link PairSpace}), as {@link #run(Application, List, RocketOptions, ResultSink)} computes every pair. The
     * space is taken in both orientations when the application is {@link Application#ordered() ordered}. In a
     * cluster run every node must give the same space: its {@link PairSpace#digest() digest} joins the fingerprint.
     *
     * @param app     the application
     * @param keys    the items, in the order that fixes their indices
     * @param space   the pairs to compute, of {@code keys.size()} items
     * @param options the runtime options
     * @param sink    where results go (rank 0's only, in a cluster run)
     * @param <K>     the item key type
     * @param <R>     the per-pair result type
     * @return the run's summary
     * @throws InterruptedException when the calling thread is interrupted while the run goes on
     * @throws RocketException for unusable options or devices, or a space of another number of items
     */
    public static <K, R> RunSummary run(Application<K, R> app, List<K> keys, PairSpace space, RocketOptions options,
                                        ResultSink<K, R> sink) throws InterruptedException {
        return run(RunPlan.check(app, keys, space, options), ResultChain.End.of(sink), null);
    }

    /**
     * Runs a checked plan (see {@link RunPlan}): what {@link #run(Application, List, PairSpace, RocketOptions,
     * ResultSink)} does once it has checked the run, with the command's end of the result chain ({@link ResultChain}:
     * progress, outputs, derived outputs); in a cluster run with a {@code shared} output, every node writes the
     * results it computes itself (see {@link SharedOutput}) and rank 0's outputs receive its own.
     *
     * @param plan   the checked run
     * @param end    the stages after the reduction
     * @param shared the output every node of a cluster run writes its share of; null, or ignored on one node
     * @param <K>    the item key type
     * @param <R>    the per-pair result type
     * @return the run's summary
     * @throws InterruptedException when the calling thread is interrupted while the run goes on
     * @throws RocketException for unusable devices (its message is meant for the user)
     */
    public static <K, R> RunSummary run(RunPlan<K, R> plan, ResultChain.End<K, R> end, SharedOutput<K, R> shared)
            throws InterruptedException {
        Application<K, R> app = plan.app();
        List<K> keys = plan.keys();
        PairSpace space = plan.space();
        RocketOptions options = plan.options();
        if (options.isCluster()) {
            ClusterOptions cluster = options.cluster();
            if (cluster.fingerprint() == null || cluster.fingerprint().isEmpty()) {
                cluster = cluster.withFingerprint(fingerprint(app, keys, cluster.partitionedStart()));
            }
            if (!space.isEverything()) {
                cluster = cluster.withFingerprint(cluster.fingerprint() + "/space " + space.digest());
            }
            return ClusterRun.run(plan, cluster, end, shared);
        }
        int n = keys.size();
        ResultReduction<K, R> reduction = new ResultReduction<>(app, keys, options);
        ResultChain<K, R> chain = ResultChain.writing(reduction, end);
        try (NodeRun<K, R> node = NodeRun.open(app, keys, options, 0, "rocket " + app.name(), chain.afterRecord(),
                true, space)) {
            long start = node.openedNanos();
            ResultLog<K, R> journal = node.journal();
            PairSet resumed = journal == null || journal.resumed().size() == 0 ? null : journal.resumed();
            PairSet done = space.done(resumed);
            long toRun = done == null ? space.pairs() : done.total() - done.size();
            node.skip(done);
            node.wire(chain.recorded(journal), toRun, null, null);
            WorkScheduler scheduler = node.scheduler();
            AtomicReference<NodeStatus> own = new AtomicReference<>(NodeStatus.empty(0, "starting"));
            long skipped = space.pairs() - toRun;
            PairSpace all = space;
            LiveStatus live = node.openStatus(0, false, own::set, () -> new JobStatus(new JobStatus.Job(app.name(), n,
                    all.describe(), all.pairs(), 1), new JobStatus.Sources(() -> skipped + node.pairsRun(),
                    () -> List.of(own.get()), Set::of, () -> 0)), null);
            node.startSampler(null, live);
            if (journal != null) {
                journal.onFailure(scheduler::abort);
            }
            Tracer tracer = node.tracer();
            BandOrder bands = null;
            if (options.order() == ScheduleOrder.BLOCKED) {
                bands = node.bandOrder(options.tileSize());
                scheduler.bands(bands);
            }
            scheduler.start(SpaceStarts.node(space, done, resumed != null, bands, options.tileSize()), tracer);
            scheduler.await();
            node.stopPipeline();
            double wall = (System.nanoTime() - start) / 1e9;
            if (live != null) {
                live.finish(true); // its last event-log line and final file, after the run's clock, as a cluster's
            }
            RunSummary summary = node.summarize(wall, toRun, wall);
            summary.pairSpace(space.density());
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
