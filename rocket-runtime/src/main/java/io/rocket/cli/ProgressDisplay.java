package io.rocket.cli;

import io.rocket.core.ResultSink;
import io.rocket.core.SinkFiles;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.util.concurrent.atomic.LongAdder;

/**
 * A progress bar on the terminal for long runs: counts pairs as they reach the sink and redraws a few times a
 * second from its own thread (never per pair). Shown only when the process has a terminal, so logs, pipes and
 * batch jobs stay clean.
 *
 * @param <K> key type
 * @param <R> result type
 */
final class ProgressDisplay<K, R> implements ResultSink<K, R>, AutoCloseable {
    private final ResultSink<K, R> next;
    private final LongAdder done = new LongAdder();
    private final ProgressBar bar;
    private final Thread refresher;

    private ProgressDisplay(ResultSink<K, R> next, long total) {
        this.next = next;
        this.bar = new ProgressBarBuilder().setTaskName("pairs").setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(250).continuousUpdate().build();
        this.refresher = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                bar.stepTo(done.sum());
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "rocket-progress");
        refresher.setDaemon(true);
        refresher.start();
    }

    /** Wraps {@code sink} with a bar when a terminal is attached; otherwise returns null. */
    static <K, R> ProgressDisplay<K, R> onTerminal(ResultSink<K, R> sink, long total) {
        return System.console() == null || total == 0 ? null : new ProgressDisplay<>(sink, total);
    }

    @Override
    public void accept(int i, int j, K left, K right, R result) {
        next.accept(i, j, left, right, result);
        done.increment();
    }

    @Override
    public void failed(int i, int j, K left, K right, Throwable error) {
        next.failed(i, j, left, right, error);
        done.increment();
    }

    @Override
    public void replay(int i, int j, K left, K right, R result) {
        next.replay(i, j, left, right, result);
        done.increment();
    }

    @Override
    public void replayFailed(int i, int j, K left, K right, Throwable error) {
        next.replayFailed(i, j, left, right, error);
        done.increment();
    }

    @Override
    public SinkFiles files() {
        return next.files();
    }

    @Override
    public void close() {
        refresher.interrupt();
        bar.stepTo(done.sum());
        bar.close();
    }
}
