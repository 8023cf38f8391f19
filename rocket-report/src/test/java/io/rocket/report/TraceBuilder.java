package io.rocket.report;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;

/** Test helper: writes small Chrome traces by hand, in the shape ChromeTracer writes them. */
public final class TraceBuilder {
    private final int pid;
    private final List<String> events = new ArrayList<>();

    TraceBuilder(int pid, String processName) {
        this.pid = pid;
        events.add(String.format(Locale.ROOT, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":\"%s\"}}",
                pid, processName));
    }

    TraceBuilder thread(int tid, String name) {
        events.add(String.format(Locale.ROOT, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
                + "\"args\":{\"name\":\"%s\"}}", pid, tid, name));
        events.add(String.format(Locale.ROOT, "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
                + "\"args\":{\"sort_index\":%d}}", pid, tid, tid));
        return this;
    }

    /** A task on an item. */
    TraceBuilder item(int tid, String name, String cat, double ts, double dur, int item) {
        events.add(String.format(Locale.ROOT, "{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,"
                + "\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"item\":%d}}", name, cat, pid, tid, ts, dur, item));
        return this;
    }

    /** A task on a pair. */
    TraceBuilder pair(int tid, String name, String cat, double ts, double dur, int i, int j) {
        events.add(String.format(Locale.ROOT, "{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,"
                + "\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"i\":%d,\"j\":%d}}", name, cat, pid, tid, ts, dur, i, j));
        return this;
    }

    /** A counter sample: series names and values alternate. */
    TraceBuilder counter(String name, double ts, Object... seriesAndValues) {
        StringBuilder args = new StringBuilder();
        for (int k = 0; k < seriesAndValues.length; k += 2) {
            args.append(k == 0 ? "" : ",").append('"').append(seriesAndValues[k]).append("\":")
                    .append(seriesAndValues[k + 1]);
        }
        events.add(String.format(Locale.ROOT, "{\"name\":\"%s\",\"ph\":\"C\",\"pid\":%d,\"ts\":%.3f,\"args\":{%s}}",
                name, pid, ts, args));
        return this;
    }

    /** Any event, as raw JSON. */
    TraceBuilder raw(String json) {
        events.add(json);
        return this;
    }

    String json() {
        return "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n" + String.join(",\n", events) + "\n]}\n";
    }

    public Path write(Path file) throws IOException {
        byte[] bytes = json().getBytes(StandardCharsets.UTF_8);
        if (file.getFileName().toString().endsWith(".gz")) {
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
                out.write(bytes);
            }
        } else {
            Files.write(file, bytes);
        }
        return file;
    }

    /**
     * One node of a small run: 4 items, 6 pairs on one sim device. Parse 50 µs per item on cpu-0 at 0, 100, 200,
     * 300; h2d 10 µs; preprocess 20 µs at 400, 430, 460, 490; compares of 100 µs back to back from 600 (the last
     * ends at 1200); d2h result 5 µs after each; two overlapping remote fetches [0, 100] and [50, 150]; L1 and L2
     * counters ending at (hits 8, misses 4, evictions 1) and (0, 4, 0).
     */
    public static TraceBuilder smallRun(int pid, String processName) {
        TraceBuilder b = new TraceBuilder(pid, processName)
                .thread(1, "io").thread(2, "cpu-0").thread(3, "sim:0 kernel").thread(4, "sim:0 h2d")
                .thread(5, "sim:0 d2h").thread(6, "worker 0").thread(7, "rocket-data-in");
        for (int item = 0; item < 4; item++) {
            b.item(2, "parse", "cpu", 100.0 * item, 50, item);
            b.item(4, "h2d", "copy", 100.0 * item + 50, 10, item);
            b.item(3, "preprocess", "kernel", 400 + 30.0 * item, 20, item);
        }
        int k = 0;
        for (int i = 0; i < 4; i++) {
            for (int j = i + 1; j < 4; j++) {
                double start = 600 + 100.0 * k;
                b.pair(3, "compare", "kernel", start, 100, i, j);
                b.pair(5, "d2h result", "copy", start + 100, 5, i, j);
                k++;
            }
        }
        b.item(7, "remote fetch", "net", 0, 100, 1);
        b.item(7, "remote fetch", "net", 50, 100, 2);
        b.counter("L1 device cache", 10, "hits", 0, "misses", 0, "evictions", 0);
        b.counter("L2 host cache", 10, "hits", 0, "misses", 0, "evictions", 0);
        b.counter("L1 device cache", 1205, "hits", 8, "misses", 4, "evictions", 1);
        b.counter("L2 host cache", 1205, "hits", 0, "misses", 4, "evictions", 0);
        return b;
    }
}
