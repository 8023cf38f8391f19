package io.rocket.steal.cluster;

import io.rocket.cache.distributed.DistributedCache;
import io.rocket.cache.distributed.L3Message;
import io.rocket.cache.distributed.L3Stats;
import io.rocket.cache.distributed.L3Transport;
import io.rocket.cache.pipeline.NodePipeline;
import io.rocket.cache.pipeline.PipelineConfig;
import io.rocket.cache.SlotCache;
import io.rocket.core.Application;
import io.rocket.core.ResultCodec;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.core.device.Device;
import io.rocket.core.device.Devices;
import io.rocket.core.summary.CacheStats;
import io.rocket.core.summary.RunSummary;
import io.rocket.core.trace.ChromeTracer;
import io.rocket.core.trace.Telemetry;
import io.rocket.core.trace.TraceEvent;
import io.rocket.core.trace.Tracer;
import io.rocket.steal.ClusterBands;
import io.rocket.steal.CounterSampler;
import io.rocket.steal.PairSet;
import io.rocket.steal.Region;
import io.rocket.steal.StartShares;
import io.rocket.steal.RocketOptions;
import io.rocket.steal.RunSupport;
import io.rocket.steal.ScheduleOrder;
import io.rocket.steal.WorkScheduler;
import io.rocket.steal.journal.RunJournal;
import org.jgroups.Address;
import org.jgroups.View;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * One node of a cluster run (paper §IV-A3, §IV-B): joins the cluster, runs its share of the pair matrix on its
 * devices with the single-node pipeline, steals regions from other nodes when idle, looks items up in other nodes'
 * L2 caches (L3) before loading them, and streams results to rank 0. Rank 0 starts with the whole matrix, writes
 * every result through its sink, ends the run for all when every pair is in, and gathers the per-node figures into
 * the summary. Every wait has a timeout. A node other than rank 0 that is lost mid-run has its unfinished work
 * re-run by the others ({@link Recovery}); losing rank 0 stops the run with a clear message (its journal, when
 * kept, lets the job resume).
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class ClusterRun<K, R> implements ClusterChannel.Handler {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterRun.class);
    private static final long END_TIMEOUT_SECONDS = 30;

    private final Application<K, R> app;
    private final List<K> keys;
    private final RocketOptions options;
    private final ClusterOptions cluster;
    private final ResultSink<K, R> userSink;
    private final int rank;
    /** Rank 0: told which rank computed how many pairs, when the sink asks for it; null otherwise. */
    private final ClusterProgress progress;
    private final Map<Integer, NodeReport> reports = new ConcurrentHashMap<>();
    private final CountDownLatch bye = new CountDownLatch(1);
    private final AtomicBoolean doneSent = new AtomicBoolean();
    private final LongAdder localPairs = new LongAdder();
    private final ExecutorService delivery = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "rocket-results-in");
        t.setDaemon(true);
        return t;
    });
    /** Replies that must not run on JGroups' receive threads (they send, and may wait for flow control). */
    private final ExecutorService replies = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "rocket-control-replies");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean crashed = new AtomicBoolean();
    private volatile Membership membership;
    private volatile RemoteStealing stealing;
    private volatile DistributedCache l3;
    private volatile WorkScheduler scheduler;
    private volatile ResultCollector<K, R> collector;
    private volatile ResultStream<K, R> stream;
    private volatile Recovery recovery;
    private volatile ClusterChannel control;
    private volatile RunJournal<K, R> journal;
    /** Pairs done before this run (resumed from rank 0's journal), which no node runs again; null when none. */
    private volatile PairSet resumed;
    private volatile View currentView;
    /** The thread joining the group; it ends once the channel has joined or its join failed. */
    private volatile Thread joiner;

    private ClusterRun(Application<K, R> app, List<K> keys, RocketOptions options, ClusterOptions cluster,
                       ResultSink<K, R> sink) {
        this.app = app;
        this.keys = List.copyOf(keys);
        this.options = options;
        this.cluster = cluster;
        this.userSink = sink;
        this.rank = cluster.rank();
        this.progress = rank == 0 && sink instanceof ClusterProgress p ? p : null;
    }

    /**
     * Runs this node's part of a cluster run and returns the summary: the whole cluster's on rank 0, this node's
     * elsewhere. On rank 0, a sink that also implements {@link ClusterProgress} is told as the run goes how many
     * pairs each rank computed.
     */
    public static <K, R> RunSummary run(Application<K, R> app, List<K> keys, RocketOptions options,
                                        ClusterOptions cluster, ResultSink<K, R> sink) throws InterruptedException {
        RunSupport.validate(app, options);
        if (cluster.nodes() > 1 && app.resultCodec() == null) {
            throw new RocketException(app.name() + " cannot run on a cluster: it defines no result codec");
        }
        return new ClusterRun<>(app, keys, options, cluster, sink).execute();
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
        Devices.Opened opened = Devices.open(options.device());
        List<Device> devices = opened.devices();
        ChromeTracer chrome = options.trace() == null ? null : new ChromeTracer(rank, "rank " + rank + " " + app.name());
        Tracer tracer = chrome == null ? Tracer.NOOP : chrome;
        Telemetry telemetry = new Telemetry(tracer);
        PipelineConfig config = RunSupport.resolve(app, keys, options, devices.get(0));
        int window = startWindow(n, config, devices.size());
        ClusterChannel channel = null;
        DataPlane data = null;
        NodePipeline<K, R> pipeline = null;
        CounterSampler sampler = null;
        try {
            data = new DataPlane(bindAddress(), new DataSink(), cluster.security(), rank, this::isCurrentMember);
            membership = new Membership(cluster, data.address(), window);
            channel = new ClusterChannel(cluster, this);
            control = channel;
            ResultSink<K, R> sink;
            if (rank == 0) {
                ClusterChannel control = channel;
                journal = options.journal() == null ? null : RunJournal.open(options.journal(), app, keys, userSink);
                PairSet done = journal == null ? new PairSet(n) : journal.resumed();
                membership.resumedPairs(done.size() == 0 ? new byte[0] : done.toCompressed());
                collector = new ResultCollector<>(journal == null ? userSink : journal.sink(), done.copy(), () -> {
                    if (doneSent.compareAndSet(false, true)) {
                        control.send(null, Wire.encode(Wire.Kind.DONE, out -> { }));
                    }
                });
                sink = collector;
            } else {
                stream = new ResultStream<>(channel, membership, app.resultCodec());
                sink = stream;
            }
            NodePipeline<K, R>[] holder = newHolder();
            InFlightPairs inFlight = new InFlightPairs(devices.size());
            long delayNanos = cluster.faults().delayMicros() * 1000;
            WorkScheduler work = new WorkScheduler(devices.size(), options.tileSize(), -1, (device, i, j) -> {
                PairSet skip = resumed;
                if (skip != null && skip.contains(i, j)) {
                    return;
                }
                if (delayNanos > 0) {
                    TimeUnit.NANOSECONDS.sleep(delayNanos); // injected slow node
                }
                inFlight.submitted(device, i, j);
                holder[0].submit(device, i, j);
            });
            scheduler = work;
            long crashAfter = cluster.faults().crashAfter();
            ClusterProgress counted = progress;
            pipeline = new NodePipeline<>(app, keys, devices, opened.hostMemory(), config, sink, telemetry,
                    (device, i, j, ok) -> {
                        localPairs.increment();
                        inFlight.finished(device);
                        if (counted != null) {
                            counted.computed(0, 1);
                        }
                        if (crashAfter >= 0 && localPairs.sum() >= crashAfter) {
                            crash();
                        }
                    });
            holder[0] = pipeline;
            work.upcoming(pipeline::upcoming);
            RunSupport.openDiskCache(app, options, pipeline); // holds no open file: nothing to close
            if (distributedCache()) {
                l3 = new DistributedCache(rank, cluster.nodes(), n, cluster.hops(), cluster.l3Timeout().toNanos(),
                        new Transport(channel, data), pipeline.hostCache());
                pipeline.remote(l3);
            }
            stealing = new RemoteStealing(cluster, membership, channel, work, new NodeRate(localPairs::sum), inFlight,
                    options.tileSize());
            if (collector != null) {
                recovery = new Recovery(channel, membership, work, collector.finished(), this::drainResults,
                        options.tileSize(), Math.max(2_000, cluster.failureTimeout().toMillis()));
            }
            WorkScheduler failTarget = work;
            membership.attach(channel, () -> failTarget.abort(new RocketException("cluster failed")), this::onLost);
                        if (journal != null) {
                journal.onFailure(work::abort);
            }
            connect(channel, joining);
            ClusterProgress shown = progress;
            membership.awaitStart(joining, shown == null ? (missing, waited, timeout) -> { } : shown::joining);
            if (progress != null) {
                progress.clusterStarted(cluster.nodes());
            }
            LOG.info("rank {}: all {} nodes joined, run starts ({} ms after connecting began)", rank, cluster.nodes(),
                    (System.nanoTime() - joining) / 1_000_000);
            if (chrome != null) {
                chrome.clockOffsetNanos(chrome.originEpochNanos() - membership.startEpochMillis() * 1_000_000L);
            }
            long start = System.nanoTime();
            if (chrome != null) {
                sampler = new CounterSampler(pipeline, tracer, l3 == null ? null : l3.stats());
            }
            resumed = resumedPairs(n);
            int agreedWindow = membership.startWindow(); // the smallest any node proposed
            if (clusterBands()) {
                SlotCache<?> l2 = pipeline.hostCache();
                work.onWindow(band -> l2.keep(ClusterBands.keptRows(n, cluster.nodes(), rank, agreedWindow, band)));
                l3.homes(i -> ClusterBands.home(i, n, cluster.nodes(), agreedWindow));
            }
            startWork(work, n, agreedWindow, tracer);
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
                if (!crashed.get()) {
                    membership.checkFailure();
                }
                throw e;
            }
            double wall = (System.nanoTime() - start) / 1e9;
            LOG.info("rank {}: all pairs done after {} s", rank, wall);
            if (journal != null) {
                journal.close();
            }
            membership.ending(bye::countDown);
            stealing.close();
            work.close();
            // Jobs still in flight (duplicates, or pairs another node duplicated and finished first) end first.
            if (!pipeline.awaitIdle(TimeUnit.SECONDS.toMillis(END_TIMEOUT_SECONDS))) {
                LOG.warn("rank {}: pair jobs still running {} s after the end of the run", rank, END_TIMEOUT_SECONDS);
            }
            // The devices were this node's until its last job ended, duplicates included: the efficiency divides by
            // that, so every kernel second it counts lies inside the time it divides by.
            double held = Math.max(wall, (System.nanoTime() - start) / 1e9);
            // Other nodes may still ask for items (their last duplicates): their serves let go of L2 before it closes.
            if (l3 != null && !l3.stopServing(TimeUnit.SECONDS.toMillis(END_TIMEOUT_SECONDS))) {
                LOG.warn("rank {}: L3 serves still sending {} s after the end of the run", rank, END_TIMEOUT_SECONDS);
            }
            if (stream != null) {
                stream.close();
            }
            pipeline.close();
            pipeline.checkQuiescent();
            if (sampler != null) {
                sampler.close();
                sampler = null;
            }
            // This node's own figures are for its share: the pairs it ran, the items they needed, its devices.
            RunSummary own = RunSupport.summarize(app, n, devices, pipeline, telemetry, wall, localPairs.sum(), held);
            NodeReport report = report(pipeline, telemetry, data, devices.size(), own);
            RunSummary summary = finish(channel, report, own, n, wall);
            if (journal != null) {
                journal.addTo(summary);
            }
            LOG.info("rank {}: figures exchanged after {} s", rank, (System.nanoTime() - start) / 1e9);
            if (chrome != null) {
                chrome.write(traceFile(options.trace()));
            }
            return summary;
        } catch (IOException e) {
            throw new RocketException("cluster: " + e.getMessage(), e);
        } finally {
            if (sampler != null) {
                sampler.close();
            }
            if (recovery != null) {
                recovery.close();
            }
            replies.shutdownNow();
            if (journal != null) {
                journal.closeQuietly(); // a failed run keeps the results it journaled
            }
            if (stealing != null) {
                stealing.close();
            }
            if (scheduler != null) {
                scheduler.close();
            }
            if (pipeline != null) {
                pipeline.close();
            }
            if (l3 != null) {
                l3.close();
            }
            if (channel != null) {
                if (membership != null && membership.failed()) {
                    Thread.sleep(300); // let a REJECT or the failure reach the other nodes before we vanish
                }
                close(channel);
            }
            if (data != null) {
                data.close();
            }
            delivery.shutdownNow();
            for (Device device : devices) {
                device.close();
            }
            opened.hostMemory().close();
        }
    }

    /**
     * Joins the group on a thread of its own, so that the wait for the cluster to form, connecting included, is
     * bounded by {@code --join-timeout} ({@link Membership#awaitStart}); JGroups' join itself retries until the channel
     * is closed. A refusal at join fails the run at once.
     */
    private void connect(ClusterChannel channel, long began) {
        Thread t = new Thread(() -> {
            try {
                channel.connect(cluster.loopbackGroup());
                LOG.info("rank {}: connected in {} ms", rank, (System.nanoTime() - began) / 1_000_000);
                membership.connected();
            } catch (RocketException e) {
                membership.joinFailed(e); // ignored when the run failed first (its channel closed at the deadline)
            } catch (RuntimeException e) {
                membership.joinFailed(new RocketException("cluster: cannot join: " + e, e));
            }
        }, "rocket-join");
        t.setDaemon(true);
        joiner = t;
        t.start();
    }

    /**
     * Closes the channel. A join still in progress holds the channel's lock: it is abandoned, and the channel closed
     * on another thread once the join has ended, so that a run that failed to form returns at once.
     */
    private void close(ClusterChannel channel) {
        channel.abandonJoin();
        Thread t = joiner;
        if (t == null || !t.isAlive()) {
            channel.close();
            return;
        }
        Thread closer = new Thread(() -> {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            channel.close();
        }, "rocket-join-close");
        closer.setDaemon(true);
        closer.start();
    }

    @SuppressWarnings("unchecked")
    private static <K, R> NodePipeline<K, R>[] newHolder() {
        return (NodePipeline<K, R>[]) new NodePipeline[1];
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

    private Path traceFile(Path trace) {
        return traceFile(trace, rank);
    }

    /** Sends this node's figures to rank 0; rank 0 gathers them all into the cluster summary. */
    private RunSummary finish(ClusterChannel channel, NodeReport report, RunSummary own, int n, double wall)
            throws IOException, InterruptedException {
        if (rank != 0) {
            String json = report.toJson();
            channel.send(membership.address(0), Wire.encode(Wire.Kind.STATS, out -> {
                out.writeInt(rank);
                writeLongString(out, json);
            }));
            if (!bye.await(END_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("cluster: rank 0 did not confirm the end of the run");
            }
            own.nodes = List.of(report.published());
            return own;
        }
        reports.put(0, report);
        awaitReports();
        channel.send(null, Wire.encode(Wire.Kind.BYE, out -> { }));
        RunSummary summary = ClusterSummary.build(app.name(), n, wall, collector.count() - collector.errors(),
                collector.errors(), own, reports, cluster, membership.startWindow());
        summary.cluster.put("lost_nodes", recovery.lostNodes());
        summary.cluster.put("lost_ranks", membership.lost().stream().sorted().toList());
        summary.cluster.put("recomputed_pairs", recovery.recomputedPairs());
        summary.cluster.put("duplicate_results", collector.duplicates());
        return summary;
    }

    /** Rank 0 waits for the figures of every node still in the run (a node lost now sends none). */
    private void awaitReports() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(END_TIMEOUT_SECONDS);
        while (true) {
            List<Integer> missing = new ArrayList<>();
            for (int r : membership.living()) {
                if (!reports.containsKey(r) && membership.inView(r)) {
                    missing.add(r);
                }
            }
            if (missing.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                LOG.warn("cluster: ranks {} sent no figures within {} s", missing, END_TIMEOUT_SECONDS);
                return;
            }
            Thread.sleep(20);
        }
    }

    /** A rank was lost: stop fetching from it, and (rank 0) have its work done again. */
    private void onLost(int lostRank) {
        if (progress != null) {
            progress.lost(lostRank);
        }
        DistributedCache cache = l3;
        if (cache != null) {
            cache.memberLost(lostRank);
        }
        Recovery r = recovery;
        if (r != null) {
            r.nodeLost(lostRank);
        }
    }

    /** Returns once every result batch received so far has reached the collector. */
    private void drainResults() {
        try {
            delivery.submit(() -> { }).get(END_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("cluster: result delivery did not drain: {}", e.toString());
        }
    }

    /** Rank 0 asks for this node's claims after a loss: send the buffered results first, then the claims. */
    private void sendClaims(int round) {
        ResultStream<K, R> s = stream;
        if (s != null) {
            s.flush();
        }
        List<Region> claims = scheduler.claims();
        Address zero = membership.address(0);
        if (zero != null) {
            control.send(zero, Wire.encode(Wire.Kind.CLAIMS, out -> {
                out.writeInt(round);
                out.writeInt(rank);
                Wire.writeRegions(out, claims);
            }));
        }
    }

    /** Injected crash (tests): fall silent at once and leave, as a killed process would. */
    private void crash() {
        if (!crashed.compareAndSet(false, true)) {
            return;
        }
        Thread t = new Thread(() -> {
            LOG.warn("rank {}: injected crash after {} pairs", rank, localPairs.sum());
            // Silent first, as a killed process is: what the stopping pipeline reports (pairs failing as its
            // executors close) must not reach rank 0 as results.
            control.kill();
            scheduler.abort(new RocketException("cluster: rank " + rank + " crashed (injected fault)"));
        }, "rocket-injected-crash");
        t.setDaemon(true);
        t.start();
    }

    private static void writeLongString(java.io.DataOutputStream out, String s) throws IOException {
        byte[] bytes = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static String readLongString(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) { // the message holds it all: never trust a length beyond that
            throw new IOException("bad string length " + length);
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }

    private NodeReport report(NodePipeline<K, R> pipeline, Telemetry t, DataPlane data, int deviceCount,
                              RunSummary own) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("rank", rank);
        f.put("devices", deviceCount);
        f.put("pairs", localPairs.sum());
        f.put("errors", pipeline.pairErrors());
        f.put("items_needed", own.itemsNeeded);
        f.put(NodeReport.ITEMS_NEEDED_SET, NodeReport.encode(pipeline.itemsNeeded()));
        f.put("loads", pipeline.loads());
        // The node's own performance-model figures (for its share), as its own summary has them; absent if undefined.
        putDefined(f, "R", own.reuse);
        putDefined(f, "R_lower_bound", own.reuseLowerBound);
        putDefined(f, "t_min_seconds", own.tMinSeconds);
        f.put("device_seconds", own.deviceSeconds);
        putDefined(f, "system_efficiency", own.systemEfficiency);
        f.put("cache", Map.of("device", stats(pipeline.deviceCacheStats()), "host", stats(pipeline.hostCacheStats())));
        if (l3 != null) {
            L3Stats s = l3.stats();
            List<Long> byHop = new ArrayList<>();
            for (int h = 1; h <= s.hops(); h++) {
                byHop.add(s.hitsAtHop(h));
            }
            f.put("l3", Map.of("requests", s.requests(), "hits", s.hits(), "hits_by_hop", byHop,
                    "misses", s.misses(), "timeouts", s.timeouts(), "served", s.served(), "home_loads", s.homeLoads()));
        }
        f.put("bytes_sent", data.bytesSent());
        f.put("bytes_received", data.bytesReceived());
        f.put("steals", Map.of("local_attempts", scheduler.stats().localAttempts(),
                "local_successes", scheduler.stats().localSuccesses(),
                "remote_attempts", stealing.attempts(), "remote_successes", stealing.successes(),
                "regions_lent", stealing.lent(), "help_attempts", stealing.helpAttempts(), "helps", stealing.helps(),
                "duplicate_attempts", stealing.duplicateAttempts(), "duplicated_pairs", stealing.duplicatedPairs()));
        f.put("preprocess_count", t.count(TraceEvent.PREPROCESS));
        f.put("preprocess_seconds", t.totalSeconds(TraceEvent.PREPROCESS));
        f.put("compare_count", t.count(TraceEvent.COMPARE));
        f.put("compare_seconds", t.totalSeconds(TraceEvent.COMPARE));
        f.put("wall_seconds", own.wallSeconds);
        Map<String, Object> inputs = new LinkedHashMap<>();
        own.inputs.forEach((scheme, x) -> inputs.put(scheme, Map.of("files", x.files(), "bytes", x.bytes(),
                "read_seconds", x.readSeconds())));
        f.put("inputs", inputs);
        f.put("read_ahead", own.readAhead);
        f.put("disk_cache", own.diskCache);
        f.put("failures", own.failures.stream().map(x -> x.error()).toList());
        return new NodeReport(f);
    }

    private static Map<String, Object> stats(CacheStats s) {
        return Map.of("slots", s.slots(), "slot_bytes", s.slotBytes(), "hits", s.hits(), "misses", s.misses(),
                "evictions", s.evictions(), "waits", s.waits(), "hit_rate", s.hitRate());
    }

    private static void putDefined(Map<String, Object> figures, String name, Double value) {
        if (value != null) {
            figures.put(name, value);
        }
    }

    // --- messages -----------------------------------------------------------------------------------------------

    @Override
    public void onMessage(Address from, Wire.Kind kind, DataInputStream in) throws Exception {
        if (membership.fromLost(from)) {
            return; // a lost rank stays out, even if the network brings it back
        }
        switch (kind) {
            case HELLO -> membership.onHello(from, in);
            case READY -> membership.onReady(from, in);
            case START -> membership.onStart(in);
            case REJECT -> membership.onReject(in);
            case STEAL_REQUEST -> stealing.onRequest(from, in);
            case STEAL_REPLY -> stealing.onReply(from, in);
            case L3 -> {
                L3Message m = Wire.readL3(in);
                DistributedCache cache = l3;
                if (cache != null) {
                    cache.onMessage(m);
                }
            }
            case RESULTS -> {
                if (collector != null) {
                    byte[] copy = in.readAllBytes();
                    ResultCodec<R> codec = app.resultCodec();
                    int sender = progress == null ? -1 : membership.rankOf(from);
                    delivery.execute(() -> {
                        try {
                            int delivered = ResultStream.deliver(
                                    new DataInputStream(new java.io.ByteArrayInputStream(copy)), codec, keys, collector);
                            if (sender > 0) {
                                progress.computed(sender, delivered);
                            }
                        } catch (IOException | RuntimeException e) {
                            LOG.error("cluster: bad result batch from {}", from, e);
                        }
                    });
                }
            }
            case DONE -> scheduler.finish();
            case STATS -> {
                int from0 = in.readInt();
                reports.put(from0, NodeReport.fromJson(readLongString(in)));
            }
            case BYE -> bye.countDown();
            case PROGRESS -> stealing.onProgress(in);
            case LOST -> {
                int round = in.readInt();
                int count = in.readInt();
                if (count < 0 || count > cluster.nodes()) {
                    throw new IOException("LOST lists " + count + " ranks");
                }
                for (int k = 0; k < count; k++) {
                    membership.markLost(in.readInt());
                }
                if (rank != 0) {
                    replies.execute(() -> sendClaims(round));
                }
            }
            case CLAIMS -> {
                Recovery r = recovery;
                if (r != null) {
                    r.onClaims(in);
                }
            }
            case RECOVER -> scheduler.give(Wire.readRegions(in));
        }
    }

    /** Whether {@code r} is a rank of this run in the current view: only those may open data connections here. */
    private boolean isCurrentMember(int r) {
        Membership m = membership;
        View v = currentView;
        Address a = m == null ? null : m.address(r);
        return a != null && v != null && v.containsMember(a);
    }

    @Override
    public void onView(View view) {
        currentView = view;
        Membership m = membership;
        if (m != null) {
            m.onView(view);
        }
    }

    /** Sends L3 control messages over the channel and item bytes over the data plane. */
    private final class Transport implements L3Transport {
        private final ClusterChannel channel;
        private final DataPlane data;

        Transport(ClusterChannel channel, DataPlane data) {
            this.channel = channel;
            this.data = data;
        }

        @Override
        public void sendControl(int to, L3Message message) {
            if (to == rank) {
                l3.onMessage(message);
                return;
            }
            Address address = membership.address(to);
            if (address != null) {
                channel.send(address, Wire.encode(Wire.Kind.L3, out -> Wire.writeL3(out, message)));
            }
        }

        @Override
        public void sendData(int to, long requestId, int item, int hop, ByteBuffer bytes, int length, Runnable done) {
            InetSocketAddress endpoint = membership.dataEndpoint(to);
            if (endpoint == null) {
                done.run(); // the requester was lost
                return;
            }
            data.send(endpoint, requestId, item, hop, bytes, length, done);
        }
    }

    /** Receives item bytes into the L3 fetch's slot. */
    private final class DataSink implements DataPlane.Sink {
        @Override
        public ByteBuffer begin(long requestId, int item, long length) {
            DistributedCache cache = l3;
            return cache == null ? null : cache.beginReceive(requestId, item, length);
        }

        @Override
        public void end(long requestId, int hop, long length, boolean ok) {
            DistributedCache cache = l3;
            if (cache != null) {
                cache.endReceive(requestId, hop, length, ok);
            }
        }
    }

    /**
     * The start window this node proposes (the run uses the smallest proposed): the one asked for; else, when nodes
     * fetch items from each other, the height of a cluster band ({@link ClusterBands}) in the blocked order or a
     * window sized to the L2 in the quadtree order, so they work on the same items at the same time; else the whole
     * matrix, so that each node keeps to its own part of the curve.
     */
    private int startWindow(int n, PipelineConfig config, int devices) {
        int window;
        if (cluster.startWindow() != ClusterOptions.AUTO_WINDOW) {
            window = cluster.startWindow();
        } else if (clusterBands()) {
            window = cluster.nodes() * ClusterBands.rowsPerNode(config.hostSlots(), devices, options.tileSize());
        } else {
            window = distributedCache() ? StartShares.windowFor(config.hostSlots()) : n;
        }
        return Math.max(1, Math.min(n, window));
    }

    private boolean distributedCache() {
        return cluster.distributedCache() && cluster.nodes() > 1;
    }

    /**
     * Whether the nodes start in cluster bands: with the blocked order, when they start on shares of their own and
     * fetch items from each other (without the distributed cache, a node's own contiguous share reuses its L2 best).
     */
    private boolean clusterBands() {
        return options.order() == ScheduleOrder.BLOCKED && cluster.partitionedStart() && distributedCache();
    }

    /** The pairs rank 0 resumed from its journal, as its START told every node; null when none. */
    private PairSet resumedPairs(int n) {
        if (rank == 0) {
            return journal == null || journal.resumed().size() == 0 ? null : journal.resumed();
        }
        byte[] compressed = membership.resumedPairs();
        if (compressed.length == 0) {
            return null;
        }
        PairSet done = new PairSet(n);
        try {
            done.addCompressed(compressed);
        } catch (IllegalArgumentException e) {
            throw new RocketException("cluster: rank 0 sent an unreadable set of resumed pairs: " + e.getMessage(), e);
        }
        return done;
    }

    /** Starts this node's workers on its own share of the pair matrix (less resumed pairs), or (rank 0) all of it. */
    private void startWork(WorkScheduler work, int n, int window, Tracer tracer) {
        if (clusterBands()) {
            work.start(ClusterBands.parts(n, cluster.nodes(), rank, window, options.tileSize(), resumed), tracer);
        } else if (cluster.partitionedStart()) {
            work.start(StartShares.parts(n, options.tileSize(), cluster.nodes(), rank, window, resumed), tracer);
        } else if (rank == 0 && resumed != null) {
            work.start(StartShares.missing(resumed, options.tileSize()), tracer);
        } else if (rank == 0) {
            work.start(Region.root(n), tracer);
        } else {
            work.start(List.of(), tracer);
        }
    }
}
