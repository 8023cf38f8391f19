package io.rocket.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.testkit.SyntheticCheck;
import io.rocket.core.CacheSize;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.summary.RunSummary;
import io.rocket.core.summary.SummaryFields;
import io.rocket.core.summary.SummaryFields.Field;
import io.rocket.steal.ScheduleOrder;
import io.rocket.cluster.ClusterOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every figure of real run summaries, single-node and cluster (rank 0's and every other rank's own), stays within
 * its bounds: efficiencies and rates in 0..1, R at least its lower bound and the bound at least 1, every number
 * finite and non-negative. The JSON is walked field by field, so a figure added later is checked too. The runs use
 * caches small enough that items are evicted and loaded again, several devices per node and 2–4 nodes; no timing
 * is asserted beyond the bounds.
 */
class SummaryBoundsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static {
        System.setProperty("java.net.preferIPv4Stack", "true");
    }

    private static SyntheticApp app(int n) {
        return new SyntheticApp(new SyntheticApp.Config(n, 256, Cost.parse("0.2"), Cost.ZERO, Cost.parse("0.02"), 11));
    }

    private static RocketOptions options(String device, int hostSlots, int deviceSlots, ScheduleOrder order) {
        return RocketOptions.defaults().withThreads(1, 1).withTileSize(4).withDevice(DeviceSpec.parse(device))
                .withCaches(new CacheSize(-1, hostSlots), new CacheSize(-1, deviceSlots)).withOrder(order);
    }

    @Test
    @Timeout(120)
    void singleNode_everyFigureWithinItsBounds() throws Exception {
        int n = 90;
        for (ScheduleOrder order : ScheduleOrder.values()) {
            for (String device : new String[]{"cpu:3", "sim:2"}) {
                SyntheticApp app = app(n);
                // The sim device only models kernel time: its results are not the app's, so only count them.
                SyntheticCheck check = new SyntheticCheck(11, n, !device.startsWith("sim"));
                RunSummary s = Rocket.run(app, app.keys(), options(device, 12, 6, order), check);
                String scope = "one node, " + device + ", " + order;
                assertThat(check.problem()).as(scope).isNull();
                assertThat(s.cache.get("host").evictions()).as("%s: items evicted", scope).isPositive();
                assertWithinBounds(scope, s);
            }
        }
    }

    @Test
    @Timeout(240)
    void cluster_everyFigureOfEveryRankWithinItsBounds() throws Exception {
        int n = 80;
        record Setting(int nodes, String device, boolean distributedCache) {
        }
        for (Setting setting : List.of(new Setting(2, "cpu:2", true), new Setting(3, "sim:2", false),
                new Setting(4, "cpu:2", true))) {
            String group = UUID.randomUUID().toString();
            SyntheticCheck check = new SyntheticCheck(11, n, !setting.device().startsWith("sim"));
            List<RunSummary> all = InJvmClusterTest.runCluster(setting.nodes(), r -> app(n),
                    options(setting.device(), 10, 6, ScheduleOrder.BLOCKED),
                    r -> ClusterOptions.loopback(group, r, setting.nodes())
                            .withDistributedCache(setting.distributedCache(), 2), check);
            assertThat(check.problem()).as("%s", setting).isNull();
            RunSummary rank0 = all.get(0);
            assertThat(rank0.pairs).isEqualTo((long) n * (n - 1) / 2);
            assertThat(rank0.nodes).hasSize(setting.nodes());
            assertThat(rank0.cache.get("host").evictions()).as("%s: items evicted", setting).isPositive();
            for (Map<String, Object> node : rank0.nodes) {
                assertThat(node).as("%s, rank %s: its own figures", setting, node.get("rank"))
                        .containsKeys("R", "R_lower_bound", "system_efficiency", "items_needed");
            }
            assertWithinBounds(setting + ", cluster", rank0);
            for (int r = 1; r < all.size(); r++) {
                assertWithinBounds(setting + ", rank " + r + "'s own", all.get(r));
            }
        }
    }

    /**
     * Walks the summary's JSON: every field must be defined in {@link SummaryFields} (the generated reference's
     * source), and every number must be finite and within the bounds defined there.
     */
    static void assertWithinBounds(String scope, RunSummary summary) throws Exception {
        JsonNode root = JSON.readTree(summary.toJson());
        List<String> checked = new ArrayList<>();
        walk(scope, "", root, root, checked);
        // Not vacuous: the figures the issue is about are there and were checked.
        assertThat(checked).as(scope).contains("R", "R_lower_bound", "system_efficiency", "t_min_seconds",
                "cache.host.hit_rate", "cache.device.hit_rate", "pairs_per_second");
    }

    private static void walk(String scope, String path, JsonNode node, JsonNode owner, List<String> checked) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                walk(scope, path.isEmpty() ? field.getKey() : path + "." + field.getKey(), field.getValue(), node,
                        checked);
            }
        } else if (node.isArray()) {
            for (JsonNode element : node) {
                walk(scope, path + "[]", element, owner, checked);
            }
        } else {
            Field field = SummaryFields.of(path).orElseThrow(() -> new AssertionError(scope + ": summary field "
                    + path + " is not defined in SummaryFields (define it there, then run scripts/docs-reference)"));
            if (field.bound() != SummaryFields.Bound.NONE) {
                assertThat(node.isNumber()).as("%s: %s = %s is a number", scope, path, node).isTrue();
                checkNumber(scope + ": " + path, field.bound(), node.doubleValue(), owner);
            }
            checked.add(path);
        }
    }

    private static void checkNumber(String what, SummaryFields.Bound bound, double value, JsonNode owner) {
        assertThat(Double.isFinite(value)).as("%s = %s is finite", what, value).isTrue();
        assertThat(value).as(what).isGreaterThanOrEqualTo(0.0);
        switch (bound) {
            case FRACTION -> assertThat(value).as(what).isLessThanOrEqualTo(1.0);
            case AT_LEAST_ONE -> assertThat(value).as(what).isGreaterThanOrEqualTo(1.0);
            case AT_LEAST_R_LOWER_BOUND -> {
                JsonNode lower = owner.get("R_lower_bound");
                assertThat(lower).as("%s: R comes with its lower bound", what).isNotNull();
                assertThat(value).as("%s against R_lower_bound", what).isGreaterThanOrEqualTo(lower.doubleValue());
            }
            default -> {
            }
        }
        if (what.endsWith("system_efficiency")) {
            assertThat(owner.get("device_seconds")).as("%s: with its device-seconds", what).isNotNull();
        }
    }
}
