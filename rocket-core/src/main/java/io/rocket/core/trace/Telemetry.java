package io.rocket.core.trace;

import java.util.concurrent.atomic.LongAdder;

/**
 * Per-step timing for the run summary and the trace, in one call: every traced task passes through
 * {@link #record}, which adds its time to the step's totals and (when tracing) writes its timeline event.
 * Kernel steps pass the device's own time (modelled on the sim device), which is what the performance model needs.
 */
public final class Telemetry {
    private final Tracer tracer;
    private final LongAdder[] counts = adders();
    private final LongAdder[] nanos = adders();

    /**
     * Creates telemetry with all step totals at 0.
     *
     * @param tracer where timeline events go; {@link Tracer#NOOP} to keep the totals only
     */
    public Telemetry(Tracer tracer) {
        this.tracer = tracer;
    }

    private static LongAdder[] adders() {
        LongAdder[] a = new LongAdder[TraceEvent.values().length];
        for (int k = 0; k < a.length; k++) {
            a[k] = new LongAdder();
        }
        return a;
    }

    /**
     * The tracer events go to.
     *
     * @return the tracer given at construction, never null when one was given
     */
    public Tracer tracer() {
        return tracer;
    }

    /**
     * A task that ran from {@code start} to {@code end} (nanoTime) and took that long. Thread-safe; allocates
     * nothing.
     *
     * @param event the step, never null
     * @param start when the task started, in {@link System#nanoTime()} nanoseconds
     * @param end when it ended, in {@link System#nanoTime()} nanoseconds
     * @param a the item's index, or the pair's first item index (see {@link TraceEvent#args()})
     * @param b the pair's second item index, or -1 for an item event
     */
    public void record(TraceEvent event, long start, long end, int a, int b) {
        record(event, start, end, end - start, a, b);
    }

    /**
     * A task whose timeline span and step cost differ (device time of a kernel). Thread-safe; allocates nothing.
     *
     * @param event the step, never null
     * @param start when the task started on the calling thread, in {@link System#nanoTime()} nanoseconds
     * @param end when it ended there, in {@link System#nanoTime()} nanoseconds
     * @param costNanos the step's cost for the summary, in nanoseconds (the device's time for a kernel)
     * @param a the item's index, or the pair's first item index (see {@link TraceEvent#args()})
     * @param b the pair's second item index, or -1 for an item event
     */
    public void record(TraceEvent event, long start, long end, long costNanos, int a, int b) {
        cost(event, costNanos);
        span(event, start, end, a, b);
    }

    /**
     * Only the timeline span of a task, on the calling thread's track; its cost comes separately through
     * {@link #cost} (an overlapped kernel: launched on one thread, its device time known on another).
     *
     * @param event the step, never null
     * @param start when the task started on the calling thread, in {@link System#nanoTime()} nanoseconds
     * @param end when it ended there, in {@link System#nanoTime()} nanoseconds
     * @param a the item's index, or the pair's first item index (see {@link TraceEvent#args()})
     * @param b the pair's second item index, or -1 for an item event
     */
    public void span(TraceEvent event, long start, long end, int a, int b) {
        tracer.complete(event, start, end, a, b);
    }

    /**
     * Only the cost of one run of a step, for the means and totals of the summary. Thread-safe; allocates nothing.
     *
     * @param event the step, never null
     * @param costNanos the step's cost in nanoseconds
     */
    public void cost(TraceEvent event, long costNanos) {
        counts[event.ordinal()].increment();
        nanos[event.ordinal()].add(costNanos);
    }

    /**
     * The summed cost of {@code count} runs of a step, for the means and totals of the summary: what a batch of
     * steps run back to back records in one call when nothing is traced. Thread-safe; allocates nothing.
     *
     * @param event the step, never null
     * @param count how many runs of the step the cost covers, at least 0
     * @param costNanos their summed cost in nanoseconds
     */
    public void costs(TraceEvent event, long count, long costNanos) {
        counts[event.ordinal()].add(count);
        nanos[event.ordinal()].add(costNanos);
    }

    /**
     * How many times the step ran.
     *
     * @param event the step, never null
     * @return the number of costs recorded for it so far
     */
    public long count(TraceEvent event) {
        return counts[event.ordinal()].sum();
    }

    /**
     * Mean cost of the step in seconds, 0 when it never ran.
     *
     * @param event the step, never null
     * @return the mean cost in seconds, or 0
     */
    public double meanSeconds(TraceEvent event) {
        long n = count(event);
        return n == 0 ? 0 : nanos[event.ordinal()].sum() / 1e9 / n;
    }

    /**
     * Total cost of the step in seconds.
     *
     * @param event the step, never null
     * @return the summed cost in seconds, 0 when it never ran
     */
    public double totalSeconds(TraceEvent event) {
        return nanos[event.ordinal()].sum() / 1e9;
    }
}
