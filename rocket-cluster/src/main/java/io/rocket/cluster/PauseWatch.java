package io.rocket.cluster;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * Notices that this whole process stood still (SIGSTOP, a suspended VM, a very long garbage collection): a thread
 * that wakes every {@link #TICK_MILLIS} ms on the monotonic clock, which runs on through such a stop, and reports a
 * gap between two wake-ups of at least the threshold. While the process stood still it answered nobody, so after a
 * stop longer than the failure timeout the other nodes have excluded it.
 */
final class PauseWatch implements AutoCloseable {
    static final long TICK_MILLIS = 100;

    private final long thresholdNanos;
    private final LongConsumer onPause;
    private final Thread thread;
    private volatile long lastTick = System.nanoTime();
    private volatile long longestNanos;
    private volatile boolean closed;

    /**
     * @param threshold the shortest stop reported
     * @param onPause   told the length of each such stop in milliseconds, on the watch's thread
     */
    PauseWatch(Duration threshold, LongConsumer onPause) {
        this.thresholdNanos = threshold.toNanos();
        this.onPause = onPause;
        this.thread = new Thread(this::run, "rocket-pause-watch");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        long tick = TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);
        while (!closed) {
            try {
                Thread.sleep(TICK_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            long gap = now - lastTick - tick;
            lastTick = now;
            if (gap >= thresholdNanos && !closed) {
                longestNanos = Math.max(longestNanos, gap);
                onPause.accept(TimeUnit.NANOSECONDS.toMillis(gap));
            }
        }
    }

    /**
     * The longest stop seen so far in milliseconds, the one this watch has not woken from yet included (a thread
     * that learns of a view change on waking from a stop can ask before the watch itself woke).
     */
    long longestMillis() {
        long current = System.nanoTime() - lastTick - TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);
        return TimeUnit.NANOSECONDS.toMillis(Math.max(longestNanos, current));
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
