package io.rocket.report;

import io.rocket.core.RocketException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reading Chrome traces: both forms, gzip, begin/end pairs, counters, and one-line errors for bad files. */
class TraceReaderTest {

    @TempDir
    Path dir;

    private static List<NodeTrace> read(Path file) {
        return new TraceReader(new EventNames()).read(file);
    }

    @Test
    void readsThreadsTasksAndCounters() throws Exception {
        Path file = TraceBuilder.smallRun(0, "rocket synthetic").write(dir.resolve("t.json"));
        List<NodeTrace> nodes = read(file);
        assertThat(nodes).hasSize(1);
        NodeTrace node = nodes.get(0);
        assertThat(node.processName()).isEqualTo("rocket synthetic");
        assertThat(node.threads()).extracting(ThreadTrack::name).containsExactly("io", "cpu-0", "sim:0 kernel",
                "sim:0 h2d", "sim:0 d2h", "rocket-data-in", "worker 0");
        assertThat(node.threads()).extracting(ThreadTrack::kind).containsExactly(ResourceKind.IO, ResourceKind.CPU,
                ResourceKind.KERNEL, ResourceKind.H2D, ResourceKind.D2H, ResourceKind.NET, ResourceKind.WORKER);
        assertThat(node.taskCount()).isEqualTo(4 * 3 + 6 * 2 + 2);
        assertThat(node.maxItem()).isEqualTo(3);
        ThreadTrack kernel = node.threads().get(2);
        assertThat(kernel.size()).isEqualTo(10);
        assertThat(kernel.start(0)).isEqualTo(400);
        assertThat(kernel.end(9)).isEqualTo(1200);
        assertThat(node.counterTrack("L1 device cache").last("hits")).isEqualTo(8);
        assertThat(node.counterTrack("L1 device cache").last("misses")).isEqualTo(4);
        assertThat(node.counterTrack("L2 host cache").size()).isEqualTo(2);
    }

    @Test
    void threadsInTheSameOrderOnEveryNode_byKindThenDevice() throws Exception {
        Path file = new TraceBuilder(1, "rank 1 x").thread(1, "worker 0").thread(2, "sim:1 d2h")
                .thread(3, "sim:0 d2h").thread(4, "sim:0 kernel").thread(5, "cpu-1").thread(6, "rocket-data-in")
                .thread(7, "sim:1 kernel").thread(8, "sim:0 h2d").thread(9, "cpu-0").thread(10, "io")
                .item(9, "parse", "cpu", 0, 1, 0).write(dir.resolve("t.json"));
        assertThat(read(file).get(0).threads()).extracting(ThreadTrack::name).containsExactly("io", "cpu-0", "cpu-1",
                "sim:0 kernel", "sim:0 h2d", "sim:0 d2h", "sim:1 kernel", "sim:1 d2h", "rocket-data-in", "worker 0");
        assertThat(NodeTrace.compareNatural("cpu-2", "cpu-10")).isNegative();
        assertThat(NodeTrace.compareNatural("cuda:10", "cuda:9")).isPositive();
        assertThat(NodeTrace.compareNatural("io", "io-0")).isNegative();
    }

    @Test
    void gzipAndPlainGiveTheSameTrace() throws Exception {
        TraceBuilder b = TraceBuilder.smallRun(2, "rank 2 synthetic");
        NodeTrace plain = read(b.write(dir.resolve("t.json"))).get(0);
        NodeTrace gz = read(b.write(dir.resolve("t.json.gz"))).get(0);
        assertThat(gz.pid()).isEqualTo(2);
        assertThat(gz.taskCount()).isEqualTo(plain.taskCount());
        for (int t = 0; t < plain.threads().size(); t++) {
            ThreadTrack a = plain.threads().get(t);
            ThreadTrack g = gz.threads().get(t);
            assertThat(g.name()).isEqualTo(a.name());
            assertThat(g.busyMicros()).isEqualTo(a.busyMicros());
        }
    }

    @Test
    void gzipIsRecognisedByContentNotName() throws Exception {
        Path file = dir.resolve("trace.data");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(TraceBuilder.smallRun(0, "rocket x").json().getBytes());
        }
        assertThat(read(file).get(0).taskCount()).isEqualTo(26);
    }

    @Test
    void arrayFormBeginEndAndUnsortedTasks() throws Exception {
        Path file = dir.resolve("a.json");
        Files.writeString(file, "[{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":5,\"tid\":1,\"args\":{\"name\":\"cpu-0\"}},"
                + "{\"name\":\"parse\",\"cat\":\"cpu\",\"ph\":\"X\",\"pid\":5,\"tid\":1,\"ts\":300,\"dur\":10,\"args\":{\"item\":9}},"
                + "{\"name\":\"parse\",\"cat\":\"cpu\",\"ph\":\"B\",\"pid\":5,\"tid\":1,\"ts\":100},"
                + "{\"name\":\"parse\",\"ph\":\"E\",\"pid\":5,\"tid\":1,\"ts\":150},"
                + "{\"name\":\"x\",\"ph\":\"i\",\"pid\":5,\"tid\":1,\"ts\":1}, 42]");
        NodeTrace node = read(file).get(0);
        ThreadTrack t = node.threads().get(0);
        assertThat(t.size()).isEqualTo(2);
        assertThat(t.start(0)).isEqualTo(100);
        assertThat(t.duration(0)).isEqualTo(50);
        assertThat(t.start(1)).isEqualTo(300);
        assertThat(t.busyMicros()).isEqualTo(60);
        assertThat(node.maxItem()).isEqualTo(9);
        assertThat(node.processName()).isEqualTo("process 5");
    }

    @Test
    void traceCutShort_keepsTheEventsBeforeTheCutWithAWarning() throws Exception {
        String json = TraceBuilder.smallRun(0, "rocket synthetic").json();
        Path file = dir.resolve("cut.json");
        Files.writeString(file, json.substring(0, json.indexOf("\"compare\"") - 3));
        TraceReader reader = new TraceReader(new EventNames());
        NodeTrace node = reader.read(file).get(0);
        assertThat(node.taskCount()).isGreaterThan(0).isLessThan(26);
        assertThat(reader.warnings()).singleElement().asString().contains("ends early");
    }

    @Test
    void missingFile_oneLineError() {
        assertThatThrownBy(() -> read(dir.resolve("nope.json.gz")))
                .isInstanceOf(RocketException.class)
                .hasMessage("cannot read trace " + dir.resolve("nope.json.gz") + ": no such file");
    }

    @Test
    void notJson_oneLineError() throws Exception {
        Path file = Files.writeString(dir.resolve("notes.txt"), "hello, this is not a trace\nsecond line\n");
        assertThatThrownBy(() -> read(file)).isInstanceOf(RocketException.class)
                .hasMessageStartingWith(file + " is not a Chrome trace (not JSON")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void jsonButNoTrace_oneLineError() throws Exception {
        Path object = Files.writeString(dir.resolve("s.json"), "{\"app\":\"synthetic\",\"pairs\":3}");
        assertThatThrownBy(() -> read(object)).isInstanceOf(RocketException.class)
                .hasMessage(object + " is not a Chrome trace (no traceEvents array)");
        Path number = Files.writeString(dir.resolve("n.json"), "42");
        assertThatThrownBy(() -> read(number)).isInstanceOf(RocketException.class)
                .hasMessageContaining("expected a JSON object with traceEvents");
        Path empty = Files.writeString(dir.resolve("e.json"), "{\"traceEvents\":[]}");
        assertThatThrownBy(() -> read(empty)).isInstanceOf(RocketException.class)
                .hasMessage(empty + " holds no trace events");
    }

    @Test
    void damagedGzip_oneLineError() throws Exception {
        byte[] whole = Files.readAllBytes(TraceBuilder.smallRun(0, "r").write(dir.resolve("t.json.gz")));
        Path cut = dir.resolve("cut.json.gz");
        Files.write(cut, Arrays.copyOf(whole, 20));
        assertThatThrownBy(() -> read(cut)).isInstanceOf(RocketException.class)
                .hasMessageContaining(cut.toString())
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void threadKinds_fromNamesElseFromTaskCategory() {
        assertThat(ResourceKind.classify("io-1", null)).isEqualTo(ResourceKind.IO);
        assertThat(ResourceKind.classify("cpu", null)).isEqualTo(ResourceKind.CPU);
        assertThat(ResourceKind.classify("cuda:1 kernel", null)).isEqualTo(ResourceKind.KERNEL);
        assertThat(ResourceKind.classify("cuda:1 h2d", null)).isEqualTo(ResourceKind.H2D);
        assertThat(ResourceKind.classify("cuda:1 d2h", null)).isEqualTo(ResourceKind.D2H);
        assertThat(ResourceKind.classify("rocket-data-in", null)).isEqualTo(ResourceKind.NET);
        assertThat(ResourceKind.classify("pool-3", "kernel")).isEqualTo(ResourceKind.KERNEL);
        assertThat(ResourceKind.classify("pool-3", null)).isEqualTo(ResourceKind.OTHER);
    }
}
