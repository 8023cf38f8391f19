package io.rocket.core.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

class ChromeTracerTest {

    @TempDir
    Path dir;

    @Test
    void write_gzipName_writesGzippedTraceEventJson() throws Exception {
        ChromeTracer tracer = new ChromeTracer(3, "rocket \"test\"");
        Thread t = new Thread(() -> {
            tracer.nameThread("cpu-0");
            long now = System.nanoTime();
            tracer.complete(TraceEvent.PARSE, now, now + 1_234_567, 7, -1);
            tracer.complete(TraceEvent.COMPARE, now, now + 999, 1, 2);
        });
        t.start();
        t.join();
        tracer.counter("L1 device cache", new String[]{"hits", "misses"}, new long[]{5, 2});
        Path file = dir.resolve("t.json.gz");
        tracer.write(file);

        JsonNode root;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            root = new ObjectMapper().readTree(in);
        }
        List<JsonNode> events = new ArrayList<>();
        root.get("traceEvents").forEach(events::add);
        assertThat(events).anySatisfy(e -> {
            assertThat(e.get("ph").asText()).isEqualTo("M");
            assertThat(e.get("name").asText()).isEqualTo("process_name");
            assertThat(e.get("args").get("name").asText()).isEqualTo("rocket \"test\"");
        });
        assertThat(events).anySatisfy(e -> {
            assertThat(e.get("name").asText()).isEqualTo("thread_name");
            assertThat(e.get("args").get("name").asText()).isEqualTo("cpu-0");
        });
        JsonNode parse = events.stream().filter(e -> e.get("name").asText().equals("parse")).findFirst().orElseThrow();
        assertThat(parse.get("ph").asText()).isEqualTo("X");
        assertThat(parse.get("pid").asInt()).isEqualTo(3);
        assertThat(parse.get("dur").asDouble()).isEqualTo(1234.567);
        assertThat(parse.get("args").get("item").asInt()).isEqualTo(7);
        JsonNode compare = events.stream().filter(e -> e.get("name").asText().equals("compare")).findFirst().orElseThrow();
        assertThat(compare.get("args").get("j").asInt()).isEqualTo(2);
        assertThat(compare.get("dur").asDouble()).isEqualTo(0.999);
        JsonNode counter = events.stream().filter(e -> e.get("ph").asText().equals("C")).findFirst().orElseThrow();
        assertThat(counter.get("args").get("hits").asLong()).isEqualTo(5);
    }

    @Test
    void write_clockOffset_shiftsTimestamps() throws Exception {
        ChromeTracer tracer = new ChromeTracer(0, "r");
        long now = System.nanoTime();
        tracer.complete(TraceEvent.READ, now, now + 10, 1, -1);
        Path plain = dir.resolve("a.json");
        tracer.write(plain);
        double ts = first(plain, "read").get("ts").asDouble();
        tracer.clockOffsetNanos(5_000_000);
        tracer.write(plain);
        assertThat(first(plain, "read").get("ts").asDouble()).isEqualTo(ts + 5000.0);
    }

    private static JsonNode first(Path file, String name) throws Exception {
        for (JsonNode e : new ObjectMapper().readTree(file.toFile()).get("traceEvents")) {
            if (e.get("name").asText().equals(name)) {
                return e;
            }
        }
        throw new AssertionError("no event " + name);
    }
}
