package io.rocket.runtime;

import io.rocket.cluster.ClusterChannel;
import io.rocket.cluster.ClusterSummary;
import io.rocket.cluster.DataPlane;
import io.rocket.cluster.FaultInjector;
import io.rocket.cluster.GroupJoin;
import io.rocket.cluster.InFlightPairs;
import io.rocket.cluster.NodeFigures;
import io.rocket.cluster.NodeRate;
import io.rocket.cluster.RecoveryMember;
import io.rocket.cluster.RemoteStealing;
import io.rocket.cluster.ResultCollector;
import io.rocket.cluster.ResultIntake;
import io.rocket.cluster.ResultStream;
import io.rocket.cluster.Stragglers;
import io.rocket.cluster.StatusReports;
import io.rocket.cluster.ClusterOptions;
import io.rocket.cluster.ClusterProgress;
import io.rocket.cluster.ControlDispatcher;
import io.rocket.cluster.EndOfRun;
import io.rocket.cluster.L3Bridge;
import io.rocket.cluster.Membership;
import io.rocket.cluster.Recovery;
import io.rocket.cluster.l3.DistributedCache;
import io.rocket.core.Application;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.core.summary.RunSummary;
import io.rocket.runtime.status.JobStatus;
import io.rocket.runtime.status.LiveStatus;
import io.rocket.runtime.status.NodeProbe;
import io.rocket.steal.PairSet;
import io.rocket.steal.PairSpace;
import io.rocket.steal.WorkScheduler;
import io.rocket.results.journal.ResultLog;
import org.jgroups.Address;
import org.jgroups.View;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One node of a cluster run (paper §IV-A3, §IV-B): joins the cluster, runs its share of the pair matrix on its
 * devices with the single-node pipeline, steals regions from other nodes when idle, looks items up in other nodes'
 * L2 caches (L3) before loading them, and streams results to rank 0. Rank 0 starts with the whole matrix, writes
 * every result through its sink, ends the run for all when every pair is in, and gathers the per-node figures into
 * the summary. Every wait has a timeout. A node other than rank 0 that is lost mid-run has its unfinished work
 * re-run by the others ({@link Recovery}); losing rank 0 stops the run with a clear message (its journal, when
 * kept, lets the job resume).
 *
 * <p>A cluster node is a {@link NodeRun} plus the cluster's layers, each registering the messages it owns with the
 * {@link ControlDispatcher}: {@link Membership}, {@link RemoteStealing}, {@link Recovery} and
 * {@link RecoveryMember}, result streaming ({@link ResultStream}, {@link ResultIntake}), the {@link EndOfRun} and
 * the {@link L3Bridge}; a {@link ResultReduction} filters results before they leave a node and ranks them on rank 0. This class composes them, registering each in the node's {@link Resources} so that they
 * close before the parts they were built on, and runs the node from joining to the summary.
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class ClusterRun<K, R> {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterRun.class);

    private final Application<K, R> app;
    private final List<K> keys;
    private final RocketOptions options;
    private final ClusterOptions cluster;
    /** The command's end of the result chain (rank 0's outputs). */
    private final ResultChain.End<K, R> ending;
    private final int rank;
    /** Rank 0: told which rank computed how many pairs, when the sink asks for it; null otherwise. */
    private final ClusterProgress progress;
    private final StartPlan plan;
    private volatile Membership membership;
    private volatile ControlDispatcher control;
    private volatile Recovery recovery;
    private volatile EndOfRun end;
    private final L3Bridge l3;
    /** Every rank writes its share of the output itself; null when results travel to rank 0. */
    private final SharedOutput<K, R> shared;

    private ClusterRun(RunPlan<K, R> checked, ClusterOptions cluster, ResultChain.End<K, R> ending,
                       SharedOutput<K, R> shared) {
        this.app = checked.app();
        this.keys = checked.keys();
        this.options = checked.options().withCluster(null);
        // End-game duplicates would put a pair in two parts: with a shared output, no rank duplicates another's.
        this.cluster = shared == null ? cluster : cluster.withStragglers(
                new Stragglers(cluster.stragglers().rateScaledSteals(), false));
        this.shared = shared;
        this.ending = ending;
        this.rank = cluster.rank();
        this.progress = rank == 0 ? ending.progress() : null;
        this.plan = new StartPlan(options, cluster, checked.space());
        this.l3 = new L3Bridge(rank);
    }

    /**
     * Runs this node's part of a cluster run and returns the summary: the whole cluster's on rank 0, this node's
     * elsewhere.
     *
     * @param app     the application
     * @param keys    the items, in the order that fixes their indices
     * @param options the runtime options
     * @param <K>     the item key type
     * @param <R>     the per-pair result type
     * @param cluster how this node joins the cluster run
     * @param sink    where results go (used on rank 0 only)
     * @return the whole cluster's summary on rank 0, this node's elsewhere
     * @throws InterruptedException when the calling thread is interrupted while the run goes on
     */
    public static <K, R> RunSummary run(Application<K, R> app, List<K> keys, RocketOptions options,
                                        ClusterOptions cluster, ResultSink<K, R> sink) throws InterruptedException {
        return run(app, keys, PairSpace.triangle(keys.size()), options, cluster, sink);
    }

    /**
     * Runs this node's part of a cluster run of the pairs of {@code space}; every node must give the same space.
     *
     * @param app     the application
     * @param keys    the items, in the order that fixes their indices
     * @param space   the pairs to compute, of {@code keys.size()} items (both orientations when the application is
     *                {@link Application#ordered() ordered})
     * @param options the runtime options
     * @param cluster how this node joins the cluster run
     * @param sink    where results go (used on rank 0 only)
     * @param <K>     the item key type
     * @param <R>     the per-pair result type
     * @return the whole cluster's summary on rank 0, this node's elsewhere
     * @throws InterruptedException when the calling thread is interrupted while the run goes on
     */
    public static <K, R> RunSummary run(Application<K, R> app, List<K> keys, PairSpace space, RocketOptions options,
                                        ClusterOptions cluster, ResultSink<K, R> sink) throws InterruptedException {
        return run(RunPlan.check(app, keys, space, options.withCluster(cluster)), cluster, ResultChain.End.of(sink),
                null);
    }

    /**
     * Runs this node's part of a checked cluster run; with a {@code shared} output, every rank writes the results it
     * computes itself (see {@link SharedOutput}), rank 0's through {@code ending}'s outputs, and no rank duplicates
     * another's pairs at the end of the run. On rank 0, {@code ending}'s progress is told as the run goes how many
     * pairs each rank computed.
     */
    static <K, R> RunSummary run(RunPlan<K, R> checked, ClusterOptions cluster, ResultChain.End<K, R> ending,
                                 SharedOutput<K, R> shared) throws InterruptedException {
        return new ClusterRun<>(checked, cluster, ending, shared).execute();
    }

    private RunSummary execute() throws InterruptedException {
        long joining = System.nanoTime(); // --join-timeout counts from here: connecting is part of joining
        int n = keys.size();
        if (progress != null) {
            List<Integer> others = new ArrayList<>();
            for (int r = 1; r < cluster.nodes(); r++) {
                others.add(r);
            }
            progress.joining(others, 0, cluster.joinTimeout().toMillis());
        }
        ResultReduction<K, R> reduction = new ResultReduction<>(app, keys, options);
        ResultChain<K, R> chain = rank == 0 ? ResultChain.writing(reduction, ending) : null;
        try (NodeRun<K, R> node = NodeRun.open(app, keys, options, rank, "rank " + rank + " " + app.name(),
                rank == 0 ? chain.afterRecord() : ending.outputs(), rank == 0, plan.space())) {
            Resources resources = node.resources();
            DataPlane data = resources.add(new DataPlane(bindAddress(), l3, cluster.security(), rank,
                    this::isCurrentMember));
            membership = new Membership(cluster, data.address(), plan.proposedWindow(node.config(),
                    node.devices().size()));
            control = new ControlDispatcher(membership);
            ClusterChannel channel = new ClusterChannel(cluster, control);
            GroupJoin join = resources.add(new GroupJoin(cluster, channel, membership));
            l3.connect(membership, channel, data);
            resources.add(l3); // closes the distributed cache after the pipeline that fetches through it
            end = new EndOfRun(rank, membership, channel, () -> node.scheduler().finish());
            ResultCollector<K, R> collector = null;
            ResultIntake<K, R> intake = null;
            ResultStream<K, R> stream = null;
            ResultSink<K, R> results;
            List<String> stages = new ArrayList<>();
            if (rank == 0) {
                ResultLog<K, R> journal = node.journal();
                PairSet resumed = journal == null ? null : journal.resumed();
                membership.resumedPairs(resumed == null || resumed.size() == 0 ? new byte[0] : resumed.toCompressed());
                membership.statusShown(options.status() != null && options.status().enabled());
                collector = chain.intake(chain.recorded(journal), plan.finishedAtStart(resumed), end::allDone);
                intake = resources.add(new ResultIntake<>(collector, app.resultCodec(), keys, membership, progress,
                        shared != null));
                results = collector;
                stages.addAll(chain.stages());
                if (shared != null) {
                    membership.beforeStart(shared::open);
                    shared.track(intake::partLengths, membership::lost);
                }
            } else {
                stream = resources.add(new ResultStream<>(channel, membership, app.resultCodec(),
                        shared == null ? null : new FirstResultPart<>(() -> shared.part(rank))));
                results = ResultChain.streaming(reduction, stream, stages);
            }
            FaultInjector faults = new FaultInjector(cluster, channel, e -> node.scheduler().abort(e));
            InFlightPairs inFlight = new InFlightPairs(node.devices().size());
            ClusterProgress counted = progress;
            node.wire(results, -1, (device, i, j) -> {
                faults.beforeSubmit();
                inFlight.submitted(device, i, j);
            }, (device, i, j, ok) -> {
                inFlight.finished(device);
                if (counted != null) {
                    counted.computed(0, 1);
                }
                faults.afterPair(node.pairsRun());
            });
            WorkScheduler work = node.scheduler();
            if (plan.distributedCache()) {
                l3.attach(new DistributedCache(rank, cluster.nodes(), n, cluster.hops(), cluster.l3Timeout().toNanos(),
                        l3, node.pipeline().hostCache()));
                node.pipeline().remote(l3.cache());
            }
            RemoteStealing stealing = resources.add(new RemoteStealing(cluster, membership, channel, work,
                    new NodeRate(node::pairsRun), inFlight, options.tileSize()));
            RecoveryMember member = resources.add(new RecoveryMember(cluster, membership, channel, work, stream));
            StatusReports reports = new StatusReports(rank, cluster.nodes(), membership, channel);
            if (collector != null) {
                ResultIntake<K, R> drained = intake;
                recovery = resources.add(new Recovery(channel, membership, work, collector.finished(),
                        () -> drained.drain(EndOfRun.TIMEOUT_SECONDS), options.tileSize(),
                        Math.max(2_000, cluster.failureTimeout().toMillis())));
                recovery.register(control);
                intake.register(control);
            }
            // Each layer takes its own messages; all of them before the channel connects.
            membership.register(control);
            stealing.register(control);
            l3.register(control);
            member.register(control);
            end.register(control);
            reports.register(control);
            membership.attach(channel, () -> work.abort(new RocketException("cluster failed")), this::onLost);
            if (node.journal() != null) {
                node.journal().onFailure(work::abort);
            }
            join.start(joining);
            membership.awaitStart(joining, progress == null ? (missing, waited, timeout) -> { } : progress::joining);
            if (progress != null) {
                progress.clusterStarted(cluster.nodes());
            }
            LOG.info("rank {}: result chain {}", rank, String.join(" -> ", stages));
            LOG.info("rank {}: all {} nodes joined, run starts ({} ms after connecting began)", rank, cluster.nodes(),
                    (System.nanoTime() - joining) / 1_000_000);
            resources.add(membership.watchPauses()); // a rank that stood still past the failure timeout stops
            node.alignTrace(membership.startEpochMillis());
            // Before the run's clock: opening the status is a fixed cost, not the run's. The other ranks sample and
            // send their figures only when rank 0 shows them (its START says so), or serve their own endpoint.
            ResultCollector<K, R> finished = collector;
            LiveStatus live = node.openStatus(rank, rank != 0 && membership.statusShown(), reports::publish,
                    () -> jobStatus(finished, reports), new NodeProbe.Cluster(l3.cache() == null ? null
                            : l3.cache().stats(), data::bytesSent, data::bytesReceived, stealing::successes));
            node.startSampler(l3.cache() == null ? null : l3.cache().stats(), live);
            long start = System.nanoTime();
            PairSet resumed = plan.resumed(node.journal(), membership);
            PairSet done = plan.done(resumed);
            node.skip(done);
            int agreedWindow = membership.startWindow(); // the smallest any node proposed
            if (plan.clusterBands()) {
                plan.keepBands(work, node.pipeline().hostCache(), l3.cache(), agreedWindow, done, resumed != null);
            }
            plan.start(work, agreedWindow, done, resumed != null, node.tracer());
            stealing.start();
            if (recovery != null) {
                recovery.start();
            }
            membership.reconcile(); // a rank that left between rank 0's START and this node's start is lost now
            if (collector != null) {
                collector.checkComplete(); // a run with no pairs is over at once
            }
            try {
                work.await();
            } catch (RocketException e) {
                if (!faults.crashed()) {
                    membership.checkFailure();
                }
                throw e;
            }
            double wall = (System.nanoTime() - start) / 1e9;
            LOG.info("rank {}: all pairs done after {} s", rank, wall);
            RunSummary own = stop(node, stealing, stream, start, wall);
            if (live != null && rank != 0) {
                live.finish(true); // its last figures go before its STATS, so rank 0 has them when it ends
            }
            NodeFigures figures = NodeFigures.of(rank, node.devices().size(), node.pairsRun(), node.pipeline(),
                    node.telemetry(), own, l3.cache() == null ? null : l3.cache().stats(), data.bytesSent(),
                    data.bytesReceived(), steals(work, stealing));
            Collection<NodeFigures> all = end.exchange(figures);
            if (live != null && rank == 0) {
                live.finish(true);
            }
            RunSummary summary = rank == 0 ? summary(own, collector, all, n, wall, intake.bytesReceived()) : own;
            if (rank == 0) {
                intake.drain(EndOfRun.TIMEOUT_SECONDS); // the last batches' results are ranked before top-k writes
                reduction.finish(summary);
            }
            if (rank != 0) {
                own.nodes = List.of(figures.published());
            }
            if (node.journal() != null) {
                node.journal().addTo(summary);
            }
            LOG.info("rank {}: figures exchanged after {} s", rank, (System.nanoTime() - start) / 1e9);
            if (options.trace() != null) {
                node.writeTrace(traceFile(options.trace(), rank));
            }
            return summary;
        } catch (IOException e) {
            throw new RocketException("cluster: " + e.getMessage(), e);
        }
    }

    /**
     * Every pair is done: stops this node's part in the run and returns the summary of its own share. Jobs still in
     * flight (duplicates, or pairs another node duplicated and finished first) end first, and other nodes' last
     * fetches from its L2 are served before the L2 closes.
     */
    private RunSummary stop(NodeRun<K, R> node, RemoteStealing stealing, ResultStream<K, R> stream, long start,
                            double wall) throws InterruptedException {
        if (node.journal() != null) {
            node.journal().close();
        }
        end.ending();
        stealing.close();
        node.scheduler().close();
        long timeout = TimeUnit.SECONDS.toMillis(EndOfRun.TIMEOUT_SECONDS);
        if (!node.pipeline().awaitIdle(timeout)) {
            LOG.warn("rank {}: pair jobs still running {} s after the end of the run", rank, EndOfRun.TIMEOUT_SECONDS);
        }
        // The devices were this node's until its last job ended, duplicates included: the efficiency divides by
        // that, so every kernel second it counts lies inside the time it divides by.
        double held = Math.max(wall, (System.nanoTime() - start) / 1e9);
        DistributedCache cache = l3.cache();
        if (cache != null && !cache.stopServing(timeout)) {
            LOG.warn("rank {}: L3 serves still sending {} s after the end of the run", rank, EndOfRun.TIMEOUT_SECONDS);
        }
        if (stream != null) {
            stream.close();
        }
        node.stopPipeline();
        // This node's own figures are for its share: the pairs it ran, the items they needed, its devices.
        RunSummary own = node.summarize(wall, node.pairsRun(), held);
        own.pairSpace(plan.space().density());
        return own;
    }

    /**
     * Rank 0: the job's live view, its pairs done counted as rank 0's finished-pair set sees them (pairs resumed from
     * a journal included); null on the other ranks.
     */
    private JobStatus jobStatus(ResultCollector<K, R> collector, StatusReports reports) {
        if (collector == null) {
            return null;
        }
        PairSpace space = plan.space();
        PairSet finished = collector.finished();
        return new JobStatus(new JobStatus.Job(app.name(), keys.size(), space.describe(), space.pairs(),
                cluster.nodes()), new JobStatus.Sources(() -> space.pairs() - (finished.total() - finished.size()),
                reports::nodes, membership::lost, () -> recovery.recomputedPairs()));
    }

    private static NodeFigures.Steals steals(WorkScheduler work, RemoteStealing stealing) {
        return new NodeFigures.Steals(work.stats().localAttempts(), work.stats().localSuccesses(),
                stealing.attempts(), stealing.successes(), stealing.lent(), stealing.helpAttempts(), stealing.helps(),
                stealing.duplicateAttempts(), stealing.duplicatedPairs());
    }

    /** Rank 0: the whole cluster's summary. */
    private RunSummary summary(RunSummary own, ResultCollector<K, R> collector, Collection<NodeFigures> nodes, int n,
                               double wall, long intakeBytes) {
        ClusterSummary.Outcome outcome = new ClusterSummary.Outcome(collector.count() - collector.errors(),
                collector.errors(), collector.duplicates(), recovery.lostNodes(),
                membership.lost().stream().sorted().toList(), recovery.recomputedPairs());
        RunSummary summary = ClusterSummary.build(app.name(), n, wall, outcome, own, nodes, cluster,
                membership.startWindow());
        summary.pairSpace(plan.space().density());
        summary.cluster.put("result_bytes_received", intakeBytes);
        return summary;
    }

    /** A rank was lost: stop fetching from it, (rank 0) have its work done again, and expect no figures from it. */
    private void onLost(int lostRank) {
        if (progress != null) {
            progress.lost(lostRank);
        }
        l3.memberLost(lostRank);
        Recovery r = recovery;
        if (r != null) {
            r.nodeLost(lostRank);
        }
        EndOfRun e = end;
        if (e != null) {
            e.membershipChanged();
        }
    }

    /** Whether {@code r} is a rank of this run in the current view: only those may open data connections here. */
    private boolean isCurrentMember(int r) {
        Membership m = membership;
        ControlDispatcher c = control;
        Address a = m == null ? null : m.address(r);
        View v = c == null ? null : c.view();
        return a != null && v != null && v.containsMember(a);
    }

    private InetAddress bindAddress() throws UnknownHostException {
        if (cluster.loopbackGroup() != null) {
            return InetAddress.getLoopbackAddress();
        }
        if (!cluster.hosts().isEmpty()) {
            return cluster.hosts().get(rank).getAddress();
        }
        return InetAddress.getLocalHost();
    }

    /** Rank r > 0 writes its trace next to rank 0's, as NAME.rankR.json[.gz]. */
    static Path traceFile(Path trace, int rank) {
        if (rank == 0) {
            return trace;
        }
        String name = trace.getFileName().toString();
        int dot = name.indexOf('.');
        String renamed = dot < 0 ? name + ".rank" + rank : name.substring(0, dot) + ".rank" + rank + name.substring(dot);
        return trace.resolveSibling(renamed);
    }
}
