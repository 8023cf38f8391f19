package io.rocket.cluster;

import io.rocket.core.exec.ThreadKind;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeStatusTest {

    private static NodeStatus sample() {
        long[] counts = new long[NodeStatus.Count.values().length];
        for (int k = 0; k < counts.length; k++) {
            counts[k] = 1000L * k + 7;
        }
        double[] busy = new double[ThreadKind.values().length];
        Arrays.fill(busy, 2.5);
        return new NodeStatus(3, "node-3", "running", 12.5, 840.25, counts, busy, 2, 20.0);
    }

    private static byte[] bytes(NodeStatus s) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(b)) {
            s.write(out);
        }
        return b.toByteArray();
    }

    @Test
    void wire_roundTrip_keepsEveryFigure() throws IOException {
        NodeStatus s = sample();
        NodeStatus read = NodeStatus.read(new DataInputStream(new ByteArrayInputStream(bytes(s))));
        assertThat(read.rank()).isEqualTo(3);
        assertThat(read.host()).isEqualTo("node-3");
        assertThat(read.pairsPerSecond()).isEqualTo(840.25);
        assertThat(read.counts()).containsExactly(s.counts());
        assertThat(read.busySeconds()).containsExactly(s.busySeconds());
        assertThat(read.gpus()).isEqualTo(2);
        assertThat(read.gpuBusySeconds()).isEqualTo(20.0);
        assertThat(read.changedSince(s)).isFalse();
    }

    @Test
    void truncatedMessage_isRejected_notAllocated() throws IOException {
        byte[] whole = bytes(sample());
        for (int cut : new int[]{3, 20, whole.length / 2, whole.length - 1}) {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(Arrays.copyOf(whole, cut)));
            assertThatThrownBy(() -> NodeStatus.read(in)).isInstanceOf(IOException.class);
        }
    }

    @Test
    void changedSince_seesStateAndCounters_notTimeAlone() {
        NodeStatus s = sample();
        NodeStatus later = new NodeStatus(3, "node-3", "running", 99, 0, s.counts().clone(), s.busySeconds().clone(),
                2, 20.0);
        assertThat(later.changedSince(s)).isFalse();
        assertThat(later.withState("done").changedSince(s)).isTrue();
        long[] more = s.counts().clone();
        more[NodeStatus.Count.PAIRS.ordinal()]++;
        assertThat(new NodeStatus(3, "node-3", "running", 99, 0, more, s.busySeconds(), 2, 20).changedSince(s))
                .isTrue();
        assertThat(s.changedSince(null)).isTrue();
    }
}
