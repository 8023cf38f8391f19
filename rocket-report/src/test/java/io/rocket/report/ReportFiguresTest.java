package io.rocket.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The figures of the report against a small hand-made run whose numbers are known (see TraceBuilder.smallRun). */
class ReportFiguresTest {

    @TempDir
    Path dir;

    private RunTraces small() throws Exception {
        return RunTraces.read(List.of(TraceBuilder.smallRun(0, "rocket synthetic").write(dir.resolve("t.json"))));
    }

    @Test
    void headlineFromTheTraceAlone() throws Exception {
        RunTraces run = small();
        assertThat(run.spanSeconds()).isCloseTo(1205e-6, within(1e-12));
        Headline h = Headline.of(run, null);
        assertThat(h.source()).isEqualTo("trace");
        assertThat(h.app()).isEqualTo("synthetic");
        assertThat(h.items()).isEqualTo(4);
        assertThat(h.pairs()).isEqualTo(6);
        assertThat(h.loads()).isEqualTo(4);
        assertThat(h.reuse()).isEqualTo(1.0);
        assertThat(h.devices()).isEqualTo(1);
        assertThat(h.nodes()).isEqualTo(1);
        // T_min = n t_pre + pairs t_cmp = 4 * 20 µs + 6 * 100 µs
        assertThat(h.tMinSeconds()).isCloseTo(680e-6, within(1e-12));
        assertThat(h.wallSeconds()).isCloseTo(1205e-6, within(1e-12));
        assertThat(h.systemEfficiency()).isCloseTo(680.0 / 1205, within(1e-9));
        assertThat(h.pairsPerSecond()).isCloseTo(6 / 1205e-6, within(1e-6));
    }

    @Test
    void headlinePrefersTheSummary() throws Exception {
        JsonNode summary = new ObjectMapper().readTree("{\"app\":\"forensics\",\"items\":4,\"pairs\":6,"
                + "\"wall_seconds\":2.5,\"pairs_per_second\":2.4,\"loads\":6,\"R\":1.5,\"t_min_seconds\":1.2,"
                + "\"system_efficiency\":0.48,\"devices\":[{\"name\":\"sim:0\"},{\"name\":\"sim:1\"}]}");
        Headline h = Headline.of(small(), summary);
        assertThat(h.source()).isEqualTo("summary");
        assertThat(h.app()).isEqualTo("forensics");
        assertThat(h.reuse()).isEqualTo(1.5);
        assertThat(h.wallSeconds()).isEqualTo(2.5);
        assertThat(h.systemEfficiency()).isEqualTo(0.48);
        assertThat(h.devices()).isEqualTo(2);
        assertThat(h.loads()).isEqualTo(6);
    }

    @Test
    void busyTimePerKind_unionOfTasks_kernelSplitComputeUnderPreprocess() throws Exception {
        RunTraces run = small();
        BusyTimes busy = BusyTimes.of(run, Headline.of(run, null));
        assertThat(busy.wallSeconds()).isCloseTo(1205e-6, within(1e-12));
        assertThat(busy.tMinSeconds()).isCloseTo(680e-6, within(1e-12));
        BusyTimes.NodeBusy node = busy.nodes().get(0);
        assertThat(node.kinds()).extracting(BusyTimes.KindBusy::kind)
                .containsExactly("io", "cpu", "h2d", "d2h", "kernel", "net");
        BusyTimes.KindBusy io = node.kinds().get(0);
        assertThat(io.threads()).isEqualTo(1);
        assertThat(io.busySeconds()).isZero();
        assertThat(node.kinds().get(1).busySeconds()).isCloseTo(200e-6, within(1e-12));
        assertThat(node.kinds().get(2).busySeconds()).isCloseTo(40e-6, within(1e-12));
        assertThat(node.kinds().get(3).busySeconds()).isCloseTo(30e-6, within(1e-12));
        BusyTimes.KindBusy kernel = node.kinds().get(4);
        assertThat(kernel.busySeconds()).isCloseTo(680e-6, within(1e-12));
        assertThat(kernel.parts()).extracting(BusyTimes.Part::name).containsExactly("compare", "preprocess");
        assertThat(kernel.parts().get(0).seconds()).isCloseTo(600e-6, within(1e-12));
        assertThat(kernel.parts().get(1).seconds()).isCloseTo(80e-6, within(1e-12));
        // two fetches [0, 100] and [50, 150] overlap: the thread was busy 150 µs, not 200
        BusyTimes.KindBusy net = node.kinds().get(5);
        assertThat(net.busySeconds()).isCloseTo(150e-6, within(1e-12));
        assertThat(net.parts().get(0).seconds()).isCloseTo(150e-6, within(1e-12));
    }

    @Test
    void throughputCountsComparesByEndTimePerDevice() throws Exception {
        Throughput t = Throughput.of(small(), 12);
        assertThat(t.bins()).isEqualTo(12);
        assertThat(t.binSeconds()).isCloseTo(1205e-6 / 12, within(1e-12));
        assertThat(t.devices()).singleElement().satisfies(d -> {
            assertThat(d.label()).isEqualTo("sim:0");
            assertThat(d.pairs()).isEqualTo(6);
            // compares end at 700, 800, ..., 1200 µs; bins are 100.42 µs wide
            assertThat(d.counts()).containsExactly(0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1);
        });
    }

    @Test
    void clusterTraces_oneSeriesAndOneLanePerNode() throws Exception {
        Path r0 = TraceBuilder.smallRun(0, "rank 0 synthetic").write(dir.resolve("t.json"));
        Path r1 = TraceBuilder.smallRun(1, "rank 1 synthetic").write(dir.resolve("t.rank1.json.gz"));
        RunTraces run = RunTraces.read(List.of(r1, r0));
        assertThat(run.nodes()).extracting(NodeTrace::pid).containsExactly(0, 1);
        Throughput t = Throughput.of(run, 4);
        assertThat(t.devices()).extracting(Throughput.DeviceSeries::label)
                .containsExactly("rank 0 · sim:0", "rank 1 · sim:0");
        Headline h = Headline.of(run, null);
        assertThat(h.nodes()).isEqualTo(2);
        assertThat(h.devices()).isEqualTo(2);
        assertThat(h.pairs()).isEqualTo(12);
        Timeline tl = Timeline.of(run, 1_000_000);
        assertThat(tl.lanes()).extracting(Timeline.Lane::label).containsExactly("rank 0 synthetic", "rank 1 synthetic");
    }

    @Test
    void cacheFromTheTraceCounters() throws Exception {
        CacheFigures c = CacheFigures.of(small(), null);
        assertThat(c.source()).isEqualTo("trace");
        assertThat(c.levels()).extracting(CacheFigures.Level::level).containsExactly("L1", "L2");
        assertThat(c.levels().get(0)).isEqualTo(new CacheFigures.Level("L1", "device cache (L1)", 8, 4, 1, 12));
        assertThat(c.levels().get(1).misses()).isEqualTo(4);
        assertThat(c.hops()).isNull();
    }

    @Test
    void cacheHopsAndStealsFromAClusterSummary() throws Exception {
        JsonNode summary = new ObjectMapper().readTree("""
                {"pairs": 12, "wall_seconds": 1.0,
                 "cache": {"device": {"hits": 90, "misses": 10, "evictions": 0},
                           "host": {"hits": 2, "misses": 8, "evictions": 3}},
                 "cluster": {"nodes": 2, "devices": 2, "l3_requests": 8, "l3_hits": 5, "l3_hits_by_hop": [4, 1],
                             "l3_misses": 2, "l3_timeouts": 1},
                 "nodes": [
                   {"rank": 0, "devices": 1, "pairs": 7, "loads": 2,
                    "l3": {"requests": 5, "hits_by_hop": [3, 1], "misses": 1, "timeouts": 0},
                    "steals": {"local_attempts": 0, "local_successes": 0, "remote_attempts": 4,
                               "remote_successes": 1, "help_attempts": 2, "helps": 1, "regions_lent": 3},
                    "bytes_sent": 100, "bytes_received": 50, "wall_seconds": 1.0},
                   {"rank": 1, "devices": 1, "pairs": 5, "loads": 1,
                    "l3": {"requests": 3, "hits_by_hop": [1, 0], "misses": 1, "timeouts": 1},
                    "steals": {"remote_attempts": 1, "remote_successes": 1}}
                 ]}""");
        CacheFigures c = CacheFigures.of(small(), summary);
        assertThat(c.source()).isEqualTo("summary");
        assertThat(c.levels()).containsExactly(
                new CacheFigures.Level("L1", "device cache (L1)", 90, 10, 0, 100),
                new CacheFigures.Level("L2", "host cache (L2)", 2, 8, 3, 10),
                new CacheFigures.Level("L3", "distributed cache (L3)", 5, 3, 0, 8));
        assertThat(c.hops().hops()).isEqualTo(2);
        assertThat(c.hops().rows()).extracting(CacheFigures.HopRow::label)
                .containsExactly("rank 0", "rank 1", "all nodes");
        assertThat(c.hops().rows().get(1).hitsByHop()).containsExactly(1, 0);
        assertThat(c.hops().rows().get(1).timeouts()).isEqualTo(1);
        assertThat(c.hops().rows().get(2).hitsByHop()).containsExactly(4, 1);
        assertThat(c.hops().rows().get(2).requests()).isEqualTo(8);

        StealFigures s = StealFigures.of(summary);
        assertThat(s.nodes()).hasSize(2);
        StealFigures.NodeSteals r0 = s.nodes().get(0);
        assertThat(r0.remoteAttempts()).isEqualTo(4);
        assertThat(r0.remoteSuccesses()).isEqualTo(1);
        assertThat(r0.helps()).isEqualTo(1);
        assertThat(r0.helpAttempts()).isEqualTo(2);
        assertThat(r0.regionsLent()).isEqualTo(3);
        assertThat(r0.bytesSent()).isEqualTo(100);
        assertThat(s.nodes().get(1).localAttempts()).isZero();
        assertThat(StealFigures.of(null).nodes()).isEmpty();
    }

    @Test
    void timeline_unthinnedKeepsEveryTaskExactly() throws Exception {
        RunTraces run = small();
        Timeline tl = Timeline.of(run, 1_000_000);
        assertThat(tl.quantumMicros()).isZero();
        assertThat(tl.tasks()).isEqualTo(26);
        assertThat(tl.boxes()).isEqualTo(26);
        Timeline.Row kernel = tl.lanes().get(0).threads().get(2);
        assertThat(kernel.name()).isEqualTo("sim:0 kernel");
        assertThat(kernel.n()).isNull();
        long[] starts = new long[kernel.s().length];
        long acc = 0;
        for (int k = 0; k < starts.length; k++) {
            acc += kernel.s()[k];
            starts[k] = acc;
        }
        assertThat(starts).containsExactly(400, 430, 460, 490, 600, 700, 800, 900, 1000, 1100);
        assertThat(kernel.d()).containsExactly(20, 20, 20, 20, 100, 100, 100, 100, 100, 100);
        assertThat(tl.names().get(kernel.k()[0]).name()).isEqualTo("preprocess");
        assertThat(tl.names().get(kernel.k()[4]).name()).isEqualTo("compare");
    }

    @Test
    void timeline_thinnedToTheBudget_mergedBoxesAccountForEveryTask() throws Exception {
        TraceBuilder b = new TraceBuilder(0, "rocket synthetic").thread(1, "sim:0 kernel").thread(2, "cpu-0");
        for (int k = 0; k < 6000; k++) {
            b.pair(1, "compare", "kernel", k * 10.0, 7, k % 50, 50 + k % 50);
            b.pair(2, "postprocess", "cpu", k * 10.0 + 7, 1, k % 50, 50 + k % 50);
        }
        RunTraces run = RunTraces.read(List.of(b.write(dir.resolve("big.json"))));
        Timeline tl = Timeline.of(run, 1000);
        assertThat(tl.tasks()).isEqualTo(12_000);
        assertThat(tl.boxes()).isLessThanOrEqualTo(1000).isGreaterThan(100);
        assertThat(tl.quantumMicros()).isPositive();
        for (Timeline.Row row : tl.lanes().get(0).threads()) {
            assertThat(row.n()).isNotNull();
            assertThat(java.util.Arrays.stream(row.n()).sum()).isEqualTo(6000);
            for (int k = 0; k < row.d().length; k++) {
                assertThat(row.b()[k]).isLessThanOrEqualTo(row.d()[k]);
            }
            long busy = java.util.Arrays.stream(row.b()).sum();
            assertThat((double) busy).isCloseTo(row.busySeconds() * 1e6, within(row.busySeconds() * 1e6 * 0.05));
        }
        assertThat(Timeline.boxes(run, tl.quantumMicros())).isEqualTo(tl.boxes());
    }
}
