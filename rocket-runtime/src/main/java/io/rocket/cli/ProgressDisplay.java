package io.rocket.cli;

import io.rocket.core.ResultSink;
import io.rocket.core.SinkFiles;
import io.rocket.core.summary.RunSummary;
import io.rocket.cluster.ClusterProgress;
import io.rocket.runtime.ProgressStage;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.Console;
import java.io.PrintWriter;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Shows how a run is going: pairs done, pairs per second, the ETA and, on rank 0 of a cluster run, the rate of
 * every rank ({@link ClusterProgress}). On a terminal it is a bar, redrawn four times a second; without one (batch
 * jobs, pipes, logs) it prints one line every interval and a last one at the end, e.g.
 *
 * <pre>
 * rocket: 12,345/79,800 pairs (15.5%), 1,234 pairs/s, ETA 0:00:54; nodes: r0 310/s r1 305/s r2 0/s (lost) r3 298/s
 * rocket: 79,800/79,800 pairs (100.0%), 1,210 pairs/s, done in 0:01:06; nodes: r0 305/s r1 301/s r2 98/s (lost) r3 300/s
 * </pre>
 *
 * Before a cluster run has formed nothing is computed, and the display says what it waits for instead of showing
 * pairs: {@code rocket: waiting for ranks 1, 2 to join (12 s of 60 s)}.
 *
 * <p>Pairs are counted as they reach the sink (one counter add each, never a lock); the drawing and printing run on a
 * daemon thread of their own, which {@link #close} stops. Rates are moving averages over about the last interval
 * (ten seconds for the bar); pairs resumed from a journal count as done, not in the rates ({@link ProgressMeter}).
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class ProgressDisplay<K, R> implements ProgressStage<K, R>, AutoCloseable {
    private static final long BAR_REFRESH_MILLIS = 250;
    private static final int BAR_TICKS_PER_RATE = 4;
    private static final Duration BAR_SMOOTHING = Duration.ofSeconds(10);

    /** The outputs, linked once before the first result ({@link #linkTo}). */
    private volatile ResultSink<K, R> next;
    private final ProgressMeter meter;
    private final PrintWriter out;
    private final ProgressBar bar;
    private final Thread thread;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean printed;
    /** What a cluster run waits for before it has formed ({@link #joining}); null once it has, or on one node. */
    private volatile String waiting;

    private ProgressDisplay(ResultSink<K, R> next, long total, Duration interval, PrintWriter out, boolean terminal) {
        this.next = next;
        this.out = out;
        if (terminal) {
            this.meter = new ProgressMeter(total, System::nanoTime, BAR_SMOOTHING.toNanos());
            this.bar = new ProgressBarBuilder().setTaskName("pairs").setInitialMax(total)
                    .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis((int) BAR_REFRESH_MILLIS)
                    .continuousUpdate().hideEta().build();
            this.thread = new Thread(this::drawBar, "rocket-progress");
        } else {
            this.meter = new ProgressMeter(total, System::nanoTime, interval.toNanos());
            this.bar = null;
            long millis = Math.max(1, interval.toMillis());
            this.thread = new Thread(() -> printLines(millis), "rocket-progress");
        }
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Wraps {@code sink} with a progress display: a bar (on stderr) when the process has a terminal, else a line to
     * {@code out} every {@code interval}. Returns null when there is nothing to show: no pairs, or progress turned
     * off (a null or zero interval).
     *
     * @param <K> key type
     * @param <R> result type
     * @param sink the sink to pass every result and failure on to, closed by the caller, not here; null when a
     *        result chain links it ({@link #linkTo})
     * @param total the number of pairs in the job, resumed ones included
     * @param interval how often a line is printed without a terminal; null, zero or negative turns progress off
     * @param out where lines go without a terminal; the bar always goes to stderr
     * @return a running display that the caller must {@link #close}, or null when there is nothing to show
     */
    public static <K, R> ProgressDisplay<K, R> open(ResultSink<K, R> sink, long total, Duration interval,
                                                    PrintWriter out) {
        if (interval == null || interval.isZero() || interval.isNegative() || total == 0) {
            return null;
        }
        return new ProgressDisplay<>(sink, total, interval, out, onTerminal());
    }

    /**
     * A progress display for a result chain to link to its outputs ({@link #linkTo}), as {@link #open} shows it.
     *
     * @param <K> key type
     * @param <R> result type
     * @param total the number of pairs in the job, resumed ones included
     * @param interval how often a line is printed without a terminal; null, zero or negative turns progress off
     * @param out where lines go without a terminal; the bar always goes to stderr
     * @return a running display that the caller must {@link #close}, or null when there is nothing to show
     */
    public static <K, R> ProgressDisplay<K, R> open(long total, Duration interval, PrintWriter out) {
        return open(null, total, interval, out);
    }

    @Override
    public void linkTo(ResultSink<K, R> outputs) {
        if (next != null) {
            throw new IllegalStateException("the progress display is linked already");
        }
        next = outputs;
    }

    /**
     * As {@link #open}, but always printing lines to {@code out}, never a bar (batch jobs, tests).
     *
     * @param <K> key type
     * @param <R> result type
     * @param sink the sink to pass every result and failure on to, closed by the caller, not here; null when a
     *        result chain links it ({@link #linkTo})
     * @param total the number of pairs in the job, resumed ones included
     * @param interval how often a line is printed; null, zero or negative turns progress off
     * @param out where the lines go
     * @return a running display that the caller must {@link #close}, or null when there is nothing to show
     */
    public static <K, R> ProgressDisplay<K, R> lines(ResultSink<K, R> sink, long total, Duration interval,
                                                     PrintWriter out) {
        if (interval == null || interval.isZero() || interval.isNegative() || total == 0) {
            return null;
        }
        return new ProgressDisplay<>(sink, total, interval, out, false);
    }

    /**
     * Whether the process is attached to a terminal. From Java 22 on, {@link System#console} also answers when the
     * streams are redirected, and only {@code Console.isTerminal()} tells.
     */
    static boolean onTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (NoSuchMethodException e) {
            return true; // before Java 22, a console is a terminal
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    private void drawBar() {
        for (long tick = 1; ; tick++) {
            try {
                Thread.sleep(BAR_REFRESH_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            String joining = waiting;
            if (joining != null) {
                bar.setExtraMessage(" " + joining);
                continue;
            }
            bar.stepTo(meter.done());
            if (tick % BAR_TICKS_PER_RATE == 0) {
                meter.sample();
                bar.setExtraMessage(" " + meter.barMessage());
            }
        }
    }

    private void printLines(long millis) {
        long next = System.nanoTime();
        while (true) {
            next += TimeUnit.MILLISECONDS.toNanos(millis);
            try {
                TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime()));
            } catch (InterruptedException e) {
                return;
            }
            if (closed.get()) {
                return;
            }
            String joining = waiting;
            if (joining != null) {
                out.println("rocket: " + joining); // not a progress line: a run that never forms ends without one
                out.flush();
                continue;
            }
            meter.sample();
            if (meter.done() >= meter.total()) {
                continue; // all in: the last line follows when the run ends
            }
            out.println(meter.line());
            out.flush();
            printed = true;
        }
    }

    @Override
    public void accept(int i, int j, K left, K right, R result) {
        next.accept(i, j, left, right, result);
        meter.pairDone();
    }

    @Override
    public void failed(int i, int j, K left, K right, Throwable error) {
        next.failed(i, j, left, right, error);
        meter.pairDone();
    }

    /**
     * Pairs done that a reduction did not pass on now ({@code --top-k} holds its pairs until the end, when the kept
     * ones arrive through {@link #accept} and count again, within the total).
     */
    @Override
    public void dropped(int i, int fromJ, int count) {
        meter.pairsDone(count);
    }

    @Override
    public void replay(int i, int j, K left, K right, R result) {
        next.replay(i, j, left, right, result);
        meter.pairResumed();
    }

    @Override
    public void replayFailed(int i, int j, K left, K right, Throwable error) {
        next.replayFailed(i, j, left, right, error);
        meter.pairResumed();
    }

    @Override
    public SinkFiles files() {
        return next.files();
    }

    /**
     * Shows, in place of progress, the ranks the cluster still waits for.
     *
     * @param missing       the ranks not yet joined, in rank order
     * @param waitedMillis  how long this node has waited so far
     * @param timeoutMillis the join timeout ({@code --join-timeout})
     */
    @Override
    public void joining(List<Integer> missing, long waitedMillis, long timeoutMillis) {
        waiting = waitingLine(missing, waitedMillis, timeoutMillis);
    }

    /** {@code waiting for ranks 1, 2 to join (12 s of 60 s)} */
    static String waitingLine(List<Integer> missing, long waitedMillis, long timeoutMillis) {
        StringBuilder b = new StringBuilder("waiting for ");
        if (missing.isEmpty()) {
            b.append("the cluster to form");
        } else {
            b.append(missing.size() == 1 ? "rank " : "ranks ");
            for (int k = 0; k < missing.size(); k++) {
                b.append(k == 0 ? "" : ", ").append(missing.get(k));
            }
            b.append(" to join");
        }
        return b.append(" (").append(waitedMillis / 1000).append(" s of ").append(timeoutMillis / 1000).append(" s)")
                .toString();
    }

    @Override
    public void clusterStarted(int nodes) {
        meter.nodes(nodes);
        waiting = null;
    }

    @Override
    public void computed(int rank, int pairs) {
        meter.computed(rank, pairs);
    }

    @Override
    public void lost(int rank) {
        meter.lost(rank);
    }

    /**
     * Pairs done so far: computed or failed by this run, or resumed.
     *
     * @return the count
     */
    long done() {
        return meter.done();
    }

    /** Whether the display's thread still runs. */
    boolean running() {
        return thread.isAlive();
    }

    /**
     * Stops the display: the bar is drawn as far as the run went, or the last line printed (unless the run stopped
     * before anything was done or shown: its error says enough). Does not close the wrapped sink.
     */
    @Override
    public void close() {
        close(null);
    }

    /**
     * {@link #close} for a run that returned its summary: the last line gives the summary's time and rate.
     *
     * @param summary the run's summary, or null when the run did not finish
     */
    public void close(RunSummary summary) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (bar != null) {
            meter.sample();
            bar.setExtraMessage(" " + meter.barMessage());
            bar.stepTo(meter.done());
            bar.close();
        } else if (printed || meter.done() > 0) {
            out.println(summary == null ? meter.finalLine()
                    : meter.finalLine(summary.wallSeconds, !summary.cluster.isEmpty()));
            out.flush();
        }
    }
}
