package io.rocket.runtime;

import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.testkit.SyntheticCheck;
import io.rocket.core.CacheSize;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.summary.RunSummary;
import io.rocket.cluster.ClusterOptions;
import io.rocket.cluster.Stragglers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cluster with one node whose simulated devices are much slower than the others' (in one JVM over JGroups'
 * shared loopback transport). The slow node holds the last work, so the idle fast nodes duplicate its pairs in
 * flight; rank 0 still writes every pair exactly once. Nothing here asserts a time: that is for scripts/bench.
 */
class StragglerTest {

    static {
        System.setProperty("java.net.preferIPv4Stack", "true");
    }

    private static final int N = 120;
    private static final int SLOW = 3;

    /** Runs 4 nodes with rank {@link #SLOW} 20 times slower; returns rank 0's summary after checking every pair. */
    private static RunSummary runWithStraggler(Stragglers stragglers) throws Exception {
        String group = UUID.randomUUID().toString();
        RocketOptions base = RocketOptions.defaults().withThreads(1, 1).withTileSize(8).withConcurrentJobs(8)
                .withCaches(new CacheSize(-1, 60), new CacheSize(-1, 40));
        SyntheticCheck check = new SyntheticCheck(11, N, false);
        List<RunSummary> all = InJvmClusterTest.runCluster(4,
                r -> new SyntheticApp(new SyntheticApp.Config(N, 256, Cost.ZERO, Cost.ZERO, Cost.parse("0.5"), 11)),
                r -> base.withDevice(DeviceSpec.parse(r == SLOW ? "sim@20" : "sim")),
                r -> ClusterOptions.loopback(group, r, 4).withStragglers(stragglers), check);
        assertThat(check.problem()).isNull();
        RunSummary rank0 = all.get(0);
        assertThat(rank0.pairs).isEqualTo((long) N * (N - 1) / 2);
        assertThat(rank0.errors).isZero();
        return rank0;
    }

    private static long duplicated(RunSummary rank0) {
        return ((Number) rank0.cluster.get("duplicated_pairs")).longValue();
    }

    @Test
    @Timeout(120)
    void slowNode_fastNodesDuplicateItsPairsInFlight_everyPairOnce() throws Exception {
        RunSummary rank0 = runWithStraggler(Stragglers.DEFAULT);
        assertThat(duplicated(rank0)).as("pairs the fast nodes ran again for the slow one").isPositive();
        long slowPairs = rank0.nodes.stream().filter(m -> ((Number) m.get("rank")).intValue() == SLOW)
                .mapToLong(m -> ((Number) m.get("pairs")).longValue()).sum();
        // It starts with a quarter of the pairs; the fast nodes take most of its share from it.
        assertThat(slowPairs).as("pairs the slow node computed").isLessThan((long) N * (N - 1) / 2 / 4);
    }

    @Test
    @Timeout(120)
    void slowNode_duplicationOff_nothingDuplicated_everyPairOnce() throws Exception {
        RunSummary rank0 = runWithStraggler(Stragglers.OFF);
        assertThat(duplicated(rank0)).isZero();
        for (Map<String, Object> node : rank0.nodes) {
            @SuppressWarnings("unchecked")
            Map<String, Object> steals = (Map<String, Object>) node.get("steals");
            assertThat(((Number) steals.get("duplicate_attempts")).longValue()).isZero();
        }
    }
}
