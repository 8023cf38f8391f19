package io.rocket.core.device;

import java.util.concurrent.locks.LockSupport;

/**
 * A modelled resource timeline for one thread. Each operation ends at {@code max(now, previous end) + duration}
 * and the caller sleeps until then. Because the next operation starts from the previous modelled end, not from
 * the moment the sleep returned, oversleeping never accumulates: a busy resource models exactly the sum of its
 * durations. Confined to one thread.
 */
public final class SimClock {
    /** Remaining waits shorter than this are not worth a park (its wake-up slop is larger). */
    private static final long MIN_PARK_NANOS = 20_000;
    private long end = Long.MIN_VALUE;

    /** Occupies the resource for {@code nanos} of modelled time and returns when that time has passed. */
    public void occupy(long nanos) {
        if (nanos <= 0) {
            return;
        }
        long now = System.nanoTime();
        end = (end == Long.MIN_VALUE || end - now < 0 ? now : end) + nanos;
        long remaining;
        while ((remaining = end - System.nanoTime()) > MIN_PARK_NANOS) {
            LockSupport.parkNanos(remaining);
        }
    }
}
