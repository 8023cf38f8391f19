package io.rocket.runtime;

import io.rocket.cluster.ClusterOptions;
import io.rocket.core.CacheSize;
import io.rocket.core.summary.RunSummary;
import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.testkit.SyntheticCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Items of mixed sizes (8 bytes to the declared 4 KiB) through the byte-budget host cache: every result exact (the
 * cpu compare checks each cached item's length and both ends), and the cache holds as many items as their actual
 * sizes allow rather than as many maximal slots as fit.
 */
class VariableSizeCacheTest {
    private static final long SEED = 11;
    private static final int MAX = 4096;

    private static SyntheticApp app(int n) {
        return new SyntheticApp(new SyntheticApp.Config(n, MAX, Cost.parse("0.1"), Cost.ZERO, Cost.ZERO, SEED), true);
    }

    private static RocketOptions options(int hostSlots, int deviceSlots) {
        return RocketOptions.defaults().withThreads(2, 1).withTileSize(4)
                .withCaches(new CacheSize(-1, hostSlots), new CacheSize(-1, deviceSlots));
    }

    private static RunSummary single(int n, int hostSlots) throws Exception {
        SyntheticApp app = app(n);
        SyntheticCheck check = new SyntheticCheck(SEED, n, true);
        RunSummary summary = Rocket.run(app, app.keys(), options(hostSlots, 6), check);
        assertThat(check.problem()).isNull();
        assertThat(summary.errors).isZero();
        return summary;
    }

    @Test
    @Timeout(60)
    void singleNode_aSmallBudgetHoldsMoreItemsThanMaximalSlots_everyResultExact() throws Exception {
        RunSummary summary = single(80, 8);
        assertThat(summary.cache.get("host").slots()).as("items held at once in 8 maximal items' bytes")
                .isGreaterThan(8);
        assertThat(summary.cache.get("host").evictions()).isPositive();
    }

    @Test
    @Timeout(60)
    void singleNode_aBudgetOfFewerMaximalSlotsThanItemsLoadsEachItemOnce() throws Exception {
        // 60 maximal slots could not hold 80 items; their actual sizes (about half the maximum) fit.
        RunSummary summary = single(80, 60);
        assertThat(summary.loads).isEqualTo(80);
        assertThat(summary.cache.get("host").evictions()).isZero();
        assertThat(summary.cache.get("host").slots()).isEqualTo(80);
    }

    @Test
    @Timeout(120)
    void cluster_itemsMoveBetweenByteBudgetCaches_everyPairOnceAndExact() throws Exception {
        int n = 90;
        int nodes = 3;
        String group = UUID.randomUUID().toString();
        SyntheticCheck check = new SyntheticCheck(SEED, n, true);
        List<RunSummary> all = InJvmClusterTest.runCluster(nodes, r -> app(n), options(10, 6),
                r -> ClusterOptions.loopback(group, r, nodes), check);
        assertThat(check.problem()).isNull();
        RunSummary rank0 = all.get(0);
        assertThat(rank0.pairs).isEqualTo((long) n * (n - 1) / 2);
        assertThat(rank0.errors).isZero();
        assertThat(((Number) rank0.cluster.get("l3_hits")).longValue()).as("items fetched from another node's L2")
                .isPositive();
    }
}
