package io.rocket.runtime.status;

import com.fasterxml.jackson.databind.JsonNode;
import io.rocket.cluster.NodeStatus;
import io.rocket.cluster.NodeStatus.Count;
import io.rocket.core.exec.ThreadKind;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The figures of the status document that are worked out rather than copied: busy fractions and bad item loads. */
class JobStatusTest {

    private static NodeStatus node(int rank, double seconds, double busyPerThread, long badItems) {
        long[] counts = new long[Count.values().length];
        counts[Count.BAD_ITEMS.ordinal()] = badItems;
        double[] busy = new double[ThreadKind.values().length];
        busy[ThreadKind.IO.ordinal()] = busyPerThread;
        return new NodeStatus(rank, "host-" + rank, "running", seconds, 0, counts, busy, 0, 0);
    }

    @Test
    void busyFraction_isPerThreadOverTheNodesTime_neverAboveOne() {
        JsonNode half = JobStatus.node(node(0, 10, 5, 0));
        assertThat(half.path("busy_fraction").path("io").asDouble()).isCloseTo(0.5, within(1e-12));
        assertThat(half.path("busy_fraction").path("cpu").asDouble()).isZero();
        assertThat(half.has("busy_seconds")).isFalse();
        // A sample taken a little after the busy times were read may show slightly more busy time than time.
        assertThat(JobStatus.node(node(0, 10, 10.2, 0)).path("busy_fraction").path("io").asDouble()).isEqualTo(1.0);
        assertThat(JobStatus.node(node(0, 0, 0, 0)).path("busy_fraction").path("io").asDouble()).isZero();
    }

    @Test
    void badItemLoads_sumTheNodes_andAreNamedSo() {
        List<NodeStatus> nodes = List.of(node(0, 1, 0, 2), node(1, 1, 0, 3));
        JobStatus job = new JobStatus(new JobStatus.Job("app", 10, "all", 45, 2),
                new JobStatus.Sources(() -> 0, () -> nodes, Set::of, () -> 0));
        JsonNode d = job.document(false);
        assertThat(d.path("bad_item_loads").asLong()).isEqualTo(5);
        assertThat(d.has("bad_items")).isFalse();
        assertThat(d.path("nodes").get(1).path("bad_items").asLong()).isEqualTo(3);
        assertThat(d.path("nodes").get(0).has("direct_memory_used_bytes")).isTrue();
    }
}
