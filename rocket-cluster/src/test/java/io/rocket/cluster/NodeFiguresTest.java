package io.rocket.cluster;

import io.rocket.core.summary.CacheStats;
import io.rocket.core.summary.InputTraffic;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeFiguresTest {

    private static NodeFigures node(int rank, int item, Double reuse, NodeFigures.L3 l3) {
        BitSet items = new BitSet();
        items.set(item);
        items.set(item + 1);
        return new NodeFigures(rank, 2, 10, 1, 2, items, 3, reuse, 1.0, 0.5, 4.0, null,
                new CacheStats(4, 100, 5, 6, 1, 0), new CacheStats(8, 100, 7, 3, 2, 1), l3, 1000, 2000,
                new NodeFigures.Steals(1, 1, 2, 1, 0, 3, 1, 0, 0), 3, 0.3, 10, 1.0, 5.0,
                Map.of("file", new InputTraffic.Figures(3, 3_000_000, 1.5, 0, 0)), Map.of("hits", 2L),
                Map.of(), List.of("item " + item + " is broken"));
    }

    @Test
    void travelsAndComesBackTheSame() throws IOException {
        NodeFigures sent = node(3, 7, 1.25, new NodeFigures.L3(5, 3, new long[] {2, 1}, 2, 0, 4, 1));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        NodeFiguresWire.write(new DataOutputStream(bytes), sent);
        NodeFigures back = NodeFiguresWire.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertThat(back.published()).isEqualTo(sent.published());
        assertThat(back.itemsNeededSet()).isEqualTo(sent.itemsNeededSet());
        assertThat(back.systemEfficiency()).isNull();
        // A message cut short is an error, never a huge allocation.
        byte[] cut = Arrays.copyOf(bytes.toByteArray(), bytes.size() / 2);
        assertThatThrownBy(() -> NodeFiguresWire.read(new DataInputStream(new ByteArrayInputStream(cut))))
                .isInstanceOf(IOException.class);
    }

    @Test
    void theTotalAddsCountsAndUnitesItems() {
        NodeFigures a = node(1, 0, 1.5, new NodeFigures.L3(5, 3, new long[] {2, 1}, 2, 0, 4, 1));
        NodeFigures b = node(0, 1, null, null);
        NodeFigures total = NodeFigures.total(List.of(a, b), 10, 2.0);
        assertThat(total.devices()).isEqualTo(4);
        assertThat(total.loads()).isEqualTo(6);
        assertThat(total.itemsNeeded()).isEqualTo(3); // {0, 1} ∪ {1, 2}
        assertThat(total.hostCache()).isEqualTo(new CacheStats(16, 100, 14, 6, 4, 2));
        assertThat(total.l3().hitsByHop()).containsExactly(2, 1);
        assertThat(total.steals().helpAttempts()).isEqualTo(6);
        assertThat(total.inputs().get("file").files()).isEqualTo(6);
        assertThat(total.inputs().get("file").mbPerSecond()).isEqualTo(3.0); // 6 MB over 2 s
        assertThat(total.readAhead()).containsEntry("hits", 4L);
        assertThat(total.failures()).containsExactly("item 1 is broken", "item 0 is broken"); // in rank order
        assertThat(total.reuse()).isNull();
    }

    @Test
    void showsTheNodeWithTheSummaryFieldNames() {
        Map<String, Object> shown = node(2, 0, 1.5, null).published();
        assertThat(shown).containsKeys("rank", "devices", "pairs", "errors", "items_needed", "loads", "R",
                "R_lower_bound", "t_min_seconds", "device_seconds", "cache", "bytes_sent", "bytes_received", "steals",
                "preprocess_count", "compare_seconds", "wall_seconds", "inputs", "read_ahead", "disk_cache",
                "failures").doesNotContainKeys("system_efficiency", "l3", "items_needed_set");
    }
}
