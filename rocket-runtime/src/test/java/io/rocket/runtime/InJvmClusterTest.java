package io.rocket.runtime;

import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.testkit.SyntheticCheck;
import io.rocket.core.CacheSize;
import io.rocket.core.ResultSink;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.summary.RunSummary;
import io.rocket.steal.ClusterBands;
import io.rocket.steal.ScheduleOrder;
import io.rocket.cluster.ClusterOptions;
import io.rocket.cluster.Faults;
import io.rocket.cluster.Wire;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;

/** Whole clusters of 2–8 nodes in one JVM over JGroups' shared loopback transport. */
class InJvmClusterTest {

    static {
        System.setProperty("java.net.preferIPv4Stack", "true");
    }

    /** Runs P nodes of the synthetic app; returns every node's summary (rank 0 first). */
    static List<RunSummary> runCluster(int nodes, IntFunction<SyntheticApp> appFor, RocketOptions options,
                                       IntFunction<ClusterOptions> clusterFor, ResultSink<Integer, Long> rank0Sink)
            throws Exception {
        return runCluster(nodes, appFor, r -> options, clusterFor, rank0Sink);
    }

    /** As above, with each node's runtime options of its own (a slower device, say). */
    static List<RunSummary> runCluster(int nodes, IntFunction<SyntheticApp> appFor,
                                       IntFunction<RocketOptions> optionsFor, IntFunction<ClusterOptions> clusterFor,
                                       ResultSink<Integer, Long> rank0Sink) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(nodes);
        try {
            List<Future<RunSummary>> futures = new ArrayList<>();
            for (int r = 0; r < nodes; r++) {
                ClusterOptions cluster = clusterFor.apply(r);
                ResultSink<Integer, Long> sink = r == 0 ? rank0Sink : new ResultSink<>() {
                    @Override
                    public void accept(int i, int j, Integer left, Integer right, Long result) {
                        throw new AssertionError("only rank 0 writes results");
                    }

                    @Override
                    public void failed(int i, int j, Integer left, Integer right, Throwable error) {
                        throw new AssertionError("only rank 0 writes results");
                    }
                };
                SyntheticApp app = appFor.apply(r);
                RocketOptions options = optionsFor.apply(r);
                futures.add(pool.submit(() -> ClusterRun.run(app, app.keys(), options, cluster, sink)));
            }
            List<RunSummary> summaries = new ArrayList<>();
            for (Future<RunSummary> f : futures) {
                summaries.add(f.get(90, TimeUnit.SECONDS));
            }
            return summaries;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Runs P nodes of the synthetic app on {@code n} items in a fresh loopback group, each node's options made by
     * {@code adjust} from the loopback defaults, and checks that rank 0 received every pair once with the right
     * value. Returns every node's summary (rank 0 first).
     */
    private static List<RunSummary> runVerified(int nodes, int n, String compareMs, RocketOptions options,
                                                BiFunction<Integer, ClusterOptions, ClusterOptions> adjust)
            throws Exception {
        return runVerified(nodes, n, r -> compareMs, options, adjust);
    }

    /** As above, with each node's compare cost from {@code compareMs} (results do not depend on it). */
    private static List<RunSummary> runVerified(int nodes, int n, IntFunction<String> compareMs, RocketOptions options,
                                                BiFunction<Integer, ClusterOptions, ClusterOptions> adjust)
            throws Exception {
        String group = UUID.randomUUID().toString();
        SyntheticCheck check = new SyntheticCheck(11, n, true);
        List<RunSummary> all = runCluster(nodes, r -> app(n, compareMs.apply(r)), options,
                r -> adjust.apply(r, ClusterOptions.loopback(group, r, nodes)), check);
        assertThat(check.problem()).as("%d nodes", nodes).isNull();
        assertThat(all.get(0).pairs).as("%d nodes", nodes).isEqualTo(n * (n - 1) / 2);
        return all;
    }

    private static SyntheticApp app(int n, String compareMs) {
        return new SyntheticApp(new SyntheticApp.Config(n, 256, Cost.parse("0.2"), Cost.ZERO, Cost.parse(compareMs), 11));
    }

    @Test
    @Timeout(120)
    void twoToEightNodes_startingOnRankZero_everyPairOnceWithRightValue_andNodesSteal() throws Exception {
        for (int nodes : new int[]{2, 5, 8}) {
            RocketOptions options = RocketOptions.defaults().withThreads(1, 1).withTileSize(8)
                    .withCaches(new CacheSize(-1, 30), new CacheSize(-1, 20));
            List<RunSummary> all = runVerified(nodes, 90, "0.02", options, (r, c) -> c.withPartitionedStart(false));
            RunSummary rank0 = all.get(0);
            assertThat(rank0.nodes).hasSize(nodes);
            long computedElsewhere = rank0.nodes.stream().filter(m -> ((Number) m.get("rank")).intValue() != 0)
                    .mapToLong(m -> ((Number) m.get("pairs")).longValue()).sum();
            assertThat(computedElsewhere).as("pairs computed by ranks > 0 (they only get work by stealing)")
                    .isPositive();
            assertThat((String) rank0.cluster.get("steals_remote")).doesNotStartWith("0/");
        }
    }

    @Test
    @Timeout(120)
    void partitionedStart_everyNodeComputesFromItsOwnShare_everyPairOnce() throws Exception {
        for (int nodes : new int[]{3, 8}) {
            int n = 120;
            RocketOptions options = RocketOptions.defaults().withThreads(1, 1).withTileSize(8)
                    .withCaches(new CacheSize(-1, 40), new CacheSize(-1, 20));
            // Compares long enough (about 0.3 s of work per node) that nodes starting a little later than the
            // others still run most of their own share before anyone steals it.
            RunSummary rank0 = runVerified(nodes, n, "0.3", options, (r, c) -> c).get(0);
            long fairShare = (long) n * (n - 1) / 2 / nodes;
            for (Map<String, Object> node : rank0.nodes) {
                // Each starts with about 1/P of the pairs; stealing evens out the ends, it does not empty a share.
                assertThat(((Number) node.get("pairs")).longValue()).as("pairs of rank %s", node.get("rank"))
                        .isGreaterThan(fairShare / 10);
            }
        }
    }

    /**
     * With the distributed cache on and the paper's order, the shares are cut in windows sized to the L2 and the nodes walk them together.
     * One node here computes ten times slower than the others: they get ahead by windows, and then take its next
     * parts over instead of running ahead alone (and of stealing its last parts at the very end). The slow node
     * may help back a few times: once others took its next parts, its own place on the curve is ahead of theirs.
     */
    @Test
    @Timeout(120)
    void slowNode_isHelpedByTheNodesAheadOfIt_everyPairOnce() throws Exception {
        int n = 120;
        RocketOptions options = RocketOptions.defaults().withThreads(1, 1).withTileSize(8)
                .withCaches(new CacheSize(-1, 12), new CacheSize(-1, 6)).withOrder(ScheduleOrder.QUADTREE);
        RunSummary rank0 = runVerified(4, n, r -> r == 1 ? "1" : "0.1", options, (r, c) -> c).get(0);
        assertThat(rank0.cluster.get("start_window")).isEqualTo(15);
        long helped = 0;
        for (Map<String, Object> node : rank0.nodes) {
            if (((Number) node.get("rank")).intValue() != 1) {
                @SuppressWarnings("unchecked")
                Map<String, Object> steals = (Map<String, Object>) node.get("steals");
                helped += ((Number) steals.get("helps")).longValue();
            }
        }
        assertThat(helped).as("parts taken over from the slow node").isPositive();
        assertThat((String) rank0.cluster.get("helps")).doesNotStartWith("0/");
    }

    /**
     * In the blocked order with the distributed cache, the nodes start in cluster bands: each band as high as the
     * nodes' row blocks together (12 slots of L2, tile 8: 3 rows a node, 12 for 4 nodes). Every pair once, and each
     * node loads far fewer items than there are, the rest coming from the others' caches.
     */
    @Test
    @Timeout(120)
    void clusterBands_everyPairOnce_andNodesShareTheirRows() throws Exception {
        int n = 120;
        int nodes = 4;
        RocketOptions options = RocketOptions.defaults().withThreads(1, 1).withTileSize(8)
                .withCaches(new CacheSize(-1, 12), new CacheSize(-1, 6));
        List<RunSummary> all = runVerified(nodes, n, "0.05", options, (r, c) -> c);
        RunSummary rank0 = all.get(0);
        assertThat(rank0.cluster.get("start_window")).isEqualTo(nodes * ClusterBands.rowsPerNode(12, 1, 8));
        assertThat(((Number) rank0.cluster.get("l3_hits")).longValue()).isPositive();
    }

    /**
     * Rank 0's end-of-run confirmation can be lost (the group drops it once a view without rank 0 is in); the other
     * nodes then take rank 0's departure as the confirmation instead of waiting out their 30 s end timeout.
     */
    @Test
    @Timeout(25)
    void lostEndConfirmation_nodesEndWhenRankZeroLeaves() throws Exception {
        RocketOptions options = RocketOptions.defaults().withThreads(1, 1).withTileSize(8);
        runVerified(3, 40, "0.02", options, (r, c) -> r == 0 ? c.withFaults(new Faults(Wire.Kind.BYE, 1.0)) : c);
    }

    @Test
    @Timeout(60)
    void clusterTraces_haveCacheCounterTracks_onEveryNode(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.json");
        RocketOptions options = RocketOptions.defaults().withThreads(1, 1).withTileSize(8)
                .withCaches(new CacheSize(-1, 12), new CacheSize(-1, 6)).withTrace(trace);
        runVerified(2, 40, "0.02", options, (r, c) -> c);
        for (Path file : List.of(trace, dir.resolve("run.rank1.json"))) {
            String json = Files.readString(file);
            assertThat(json).as("%s", file).contains("\"L1 device cache\"").contains("\"L2 host cache\"")
                    .contains("\"L3 distributed cache\"").contains("\"ph\":\"C\"");
        }
    }

    @Test
    @Timeout(120)
    void smallHostCaches_l3Hits() throws Exception {
        RocketOptions options = RocketOptions.defaults().withThreads(1, 1).withTileSize(8)
                .withCaches(new CacheSize(-1, 12), new CacheSize(-1, 6));
        Map<String, Object> cluster = runVerified(4, 120, "0.05", options, (r, c) -> c.withDistributedCache(true, 2))
                .get(0).cluster;
        assertThat(((Number) cluster.get("l3_requests")).longValue()).isPositive();
        assertThat(((Number) cluster.get("l3_hits")).longValue()).isPositive();
    }

    @Test
    @Timeout(120)
    void droppedL3Replies_costLocalLoads_runCompletes() throws Exception {
        RocketOptions options = RocketOptions.defaults().withThreads(1, 1).withTileSize(8)
                .withCaches(new CacheSize(-1, 10), new CacheSize(-1, 6));
        Map<String, Object> cluster = runVerified(3, 80, "0.05", options, (r, c) -> c.withDistributedCache(true, 1)
                .withL3Timeout(java.time.Duration.ofMillis(50)).withFaults(new Faults(Wire.Kind.L3, 0.3)))
                .get(0).cluster;
        assertThat(((Number) cluster.get("l3_timeouts")).longValue()).isPositive();
    }

    @Test
    @Timeout(60)
    void differentItemList_failsFastWithClearError() throws Exception {
        String group = UUID.randomUUID().toString();
        SyntheticApp app = app(20, "0");
        RocketOptions options = RocketOptions.defaults().withThreads(1, 1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<RunSummary> rank0 = pool.submit(() -> ClusterRun.run(app, app.keys(), options,
                    ClusterOptions.loopback(group, 0, 2).withFingerprint("keys-A"), new SyntheticCheck(11, 20, true)));
            Future<RunSummary> rank1 = pool.submit(() -> ClusterRun.run(app, app.keys(), options,
                    ClusterOptions.loopback(group, 1, 2).withFingerprint("keys-B"), new SyntheticCheck(11, 20, true)));
            for (Future<RunSummary> f : List.of(rank0, rank1)) {
                assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> f.get(30, TimeUnit.SECONDS)))
                        .hasRootCauseInstanceOf(io.rocket.core.RocketException.class)
                        .rootCause().hasMessageContaining("different item list or options than rank 0");
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
