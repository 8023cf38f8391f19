package io.rocket.core.trace;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * Records events in per-thread primitive logs (no allocation per event once a log has grown) and writes them in
 * the Chrome Trace Event Format, which Perfetto UI and chrome://tracing open: {@code pid} is the node rank,
 * {@code tid} one per resource thread, {@code X} events for tasks, {@code C} events for counters and {@code M}
 * events naming processes and threads. Timestamps are microseconds since the tracer started, shifted by a clock
 * offset so the nodes of a cluster line up with rank 0.
 */
public final class ChromeTracer implements Tracer {
    private final int pid;
    private final String processName;
    private final long origin = System.nanoTime();
    private final long originEpochNanos = System.currentTimeMillis() * 1_000_000L;
    private final List<ThreadLog> logs = new ArrayList<>();
    private final List<CounterSample> counters = new ArrayList<>();
    private final ThreadLocal<ThreadLog> current = new ThreadLocal<>();
    private volatile long clockOffsetNanos;

    /**
     * Creates a tracer whose clock starts now.
     *
     * @param pid the trace's process id: the node's rank (0 on a single node)
     * @param processName the process row's name in the trace, e.g. the application and the node
     */
    public ChromeTracer(int pid, String processName) {
        this.pid = pid;
        this.processName = processName;
    }

    /**
     * Wall-clock time (epoch nanoseconds, millisecond precision) when this tracer started.
     *
     * @return the start time in nanoseconds since the epoch, a multiple of 10^6
     */
    public long originEpochNanos() {
        return originEpochNanos;
    }

    /**
     * Shifts this node's timestamps by {@code nanos} (its clock minus rank 0's). May be called from any thread,
     * before {@link #write(OutputStream)}.
     *
     * @param nanos this node's clock minus rank 0's, in nanoseconds (0 on rank 0)
     */
    public void clockOffsetNanos(long nanos) {
        this.clockOffsetNanos = nanos;
    }

    @Override
    public boolean enabled() {
        return true;
    }

    @Override
    public void nameThread(String name) {
        log().name = name;
    }

    @Override
    public void complete(TraceEvent event, long startNanos, long endNanos, int a, int b) {
        log().add(event, startNanos - origin, endNanos - startNanos, a, b);
    }

    @Override
    public synchronized void counter(String name, String[] series, long[] values) {
        counters.add(new CounterSample(name, System.nanoTime() - origin, series.clone(), values.clone()));
    }

    private ThreadLog log() {
        ThreadLog log = current.get();
        if (log == null) {
            synchronized (this) {
                log = new ThreadLog(logs.size() + 1, Thread.currentThread().getName());
                logs.add(log);
            }
            current.set(log);
        }
        return log;
    }

    /**
     * Writes the trace to {@code file}, gzip-compressed when the name ends in {@code .gz}. Call after the traced
     * threads are done.
     *
     * @param file the file to write, replaced if it exists; its directory must exist
     * @throws IOException when the file cannot be written
     */
    public void write(Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            if (file.getFileName().toString().endsWith(".gz")) {
                try (GZIPOutputStream gz = new GZIPOutputStream(out, 1 << 16)) {
                    write(gz);
                }
            } else {
                write(out);
            }
        }
    }

    /**
     * Writes the trace as JSON. Call after the traced threads are done.
     *
     * @param stream where to write the UTF-8 JSON; flushed but not closed
     * @throws IOException when writing fails
     */
    public synchronized void write(OutputStream stream) throws IOException {
        Writer w = new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), 1 << 16);
        w.write("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
        w.write("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" + pid + ",\"args\":{\"name\":\""
                + escape(processName) + "\"}}");
        for (ThreadLog log : logs) {
            w.write(",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" + pid + ",\"tid\":" + log.tid
                    + ",\"args\":{\"name\":\"" + escape(log.name) + "\"}}");
            w.write(",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":" + pid + ",\"tid\":" + log.tid
                    + ",\"args\":{\"sort_index\":" + log.tid + "}}");
        }
        StringBuilder line = new StringBuilder(200);
        for (ThreadLog log : logs) {
            for (int k = 0; k < log.size; k++) {
                TraceEvent event = TraceEvent.values()[log.type[k]];
                line.setLength(0);
                line.append(",\n{\"name\":\"").append(event.displayName()).append("\",\"cat\":\"")
                        .append(event.category()).append("\",\"ph\":\"X\",\"pid\":").append(pid)
                        .append(",\"tid\":").append(log.tid).append(",\"ts\":");
                micros(line, log.start[k] + clockOffsetNanos);
                line.append(",\"dur\":");
                micros(line, log.duration[k]);
                if (event.args() == TraceEvent.Args.ITEM) {
                    line.append(",\"args\":{\"item\":").append(log.a[k]).append("}}");
                } else {
                    line.append(",\"args\":{\"i\":").append(log.a[k]).append(",\"j\":").append(log.b[k]).append("}}");
                }
                w.append(line);
            }
        }
        for (CounterSample sample : counters) {
            line.setLength(0);
            line.append(",\n{\"name\":\"").append(escape(sample.name)).append("\",\"ph\":\"C\",\"pid\":").append(pid)
                    .append(",\"ts\":");
            micros(line, sample.time + clockOffsetNanos);
            line.append(",\"args\":{");
            for (int s = 0; s < sample.series.length; s++) {
                line.append(s == 0 ? "" : ",").append('"').append(escape(sample.series[s])).append("\":")
                        .append(sample.values[s]);
            }
            line.append("}}");
            w.append(line);
        }
        w.write("\n]}\n");
        w.flush();
    }

    private static void micros(StringBuilder out, long nanos) {
        // Fixed three decimals: microseconds with nanosecond precision, no floating-point formatting cost.
        if (nanos < 0) {
            out.append('-');
            nanos = -nanos;
        }
        out.append(nanos / 1000).append('.');
        long frac = nanos % 1000;
        if (frac < 100) {
            out.append('0');
        }
        if (frac < 10) {
            out.append('0');
        }
        out.append(frac);
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private record CounterSample(String name, long time, String[] series, long[] values) {
    }

    /** One thread's events in growable primitive arrays; written only by its thread. */
    private static final class ThreadLog {
        final int tid;
        String name;
        int size;
        int[] type = new int[1024];
        long[] start = new long[1024];
        long[] duration = new long[1024];
        int[] a = new int[1024];
        int[] b = new int[1024];

        ThreadLog(int tid, String name) {
            this.tid = tid;
            this.name = name;
        }

        void add(TraceEvent event, long start, long duration, int a, int b) {
            if (size == type.length) {
                int n = size * 2;
                type = java.util.Arrays.copyOf(type, n);
                this.start = java.util.Arrays.copyOf(this.start, n);
                this.duration = java.util.Arrays.copyOf(this.duration, n);
                this.a = java.util.Arrays.copyOf(this.a, n);
                this.b = java.util.Arrays.copyOf(this.b, n);
            }
            type[size] = event.ordinal();
            this.start[size] = start;
            this.duration[size] = duration;
            this.a[size] = a;
            this.b[size] = b;
            size++;
        }
    }
}
