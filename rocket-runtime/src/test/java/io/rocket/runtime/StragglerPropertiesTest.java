package io.rocket.runtime;

import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.testkit.SyntheticCheck;
import io.rocket.core.CacheSize;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.summary.RunSummary;
import io.rocket.cluster.ClusterOptions;
import io.rocket.cluster.Stragglers;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cluster's exactly-once promise under rate-scaled steals and end-game duplication (both on), over random
 * shapes: any node count, item count, tile size and job limit, each node's simulated devices slowed by its own random
 * factor. Whatever is stolen or run twice, rank 0's sink sees every pair exactly once and the run ends.
 */
class StragglerPropertiesTest {

    static {
        System.setProperty("java.net.preferIPv4Stack", "true");
    }

    @Property(tries = 8)
    void randomSlowdowns_everyPairOnceInTheSink(@ForAll @IntRange(min = 2, max = 4) int nodes,
                                                @ForAll @IntRange(min = 2, max = 90) int n,
                                                @ForAll @IntRange(min = 1, max = 12) int tile,
                                                @ForAll @IntRange(min = 1, max = 16) int jobs,
                                                @ForAll @Size(4) List<@IntRange(min = 1, max = 12) Integer> slowdowns)
            throws Exception {
        String group = UUID.randomUUID().toString();
        RocketOptions base = RocketOptions.defaults().withThreads(1, 1).withTileSize(tile).withConcurrentJobs(jobs)
                .withCaches(new CacheSize(-1, 30), new CacheSize(-1, 20));
        SyntheticCheck check = new SyntheticCheck(5, n, false);
        List<RunSummary> all = InJvmClusterTest.runCluster(nodes,
                r -> new SyntheticApp(new SyntheticApp.Config(n, 64, Cost.ZERO, Cost.ZERO, Cost.parse("0.3"), 5)),
                r -> base.withDevice(DeviceSpec.parse("sim@" + slowdowns.get(r))),
                r -> ClusterOptions.loopback(group, r, nodes).withStragglers(Stragglers.DEFAULT), check);
        assertThat(check.problem()).isNull();
        assertThat(all.get(0).pairs).isEqualTo((long) n * (n - 1) / 2);
        assertThat(all.get(0).errors).isZero();
    }
}
