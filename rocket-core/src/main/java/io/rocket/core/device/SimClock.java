package io.rocket.core.device;

import io.rocket.core.exec.IdleMarks;

import java.util.concurrent.locks.LockSupport;

/**
 * A modelled resource timeline for one thread. An operation that follows the previous one back to back (on a
 * resource thread: the next task was already queued, see {@link IdleMarks}; elsewhere: it began within a few tens
 * of microseconds) starts at the previous operation's modelled end, not at the moment the sleep happened to return;
 * an operation after an idle gap starts now. So wake-up slop never accumulates: a busy resource models exactly the
 * sum of its durations, however loaded the host is. Confined to one thread.
 */
public final class SimClock {
    /** Remaining waits shorter than this are not worth a park (its wake-up slop is larger). */
    private static final long MIN_PARK_NANOS = 20_000;
    /** A gap this short between two operations means the thread had the next one queued: no idle time. */
    private static final long BACK_TO_BACK_NANOS = 50_000;
    private long end;
    private long returned = Long.MIN_VALUE;

    /** A timeline with no operation yet: the first one starts when it is asked for. */
    public SimClock() {
    }

    /**
     * Occupies the resource for {@code nanos} of modelled time and returns when that time has passed. Call it only
     * on the thread this clock belongs to.
     *
     * @param nanos the modelled duration in nanoseconds; 0 or less returns at once
     */
    public void occupy(long nanos) {
        if (nanos <= 0) {
            return;
        }
        long now = System.nanoTime();
        Boolean idled = IdleMarks.takeIdle();
        boolean backToBack = returned != Long.MIN_VALUE
                && (idled != null ? !idled : now - returned <= BACK_TO_BACK_NANOS);
        long start = backToBack ? end : Math.max(now, end);
        end = start + nanos;
        long remaining;
        while ((remaining = end - System.nanoTime()) > MIN_PARK_NANOS) {
            LockSupport.parkNanos(remaining);
        }
        returned = System.nanoTime();
    }
}
