package io.rocket.steal;

import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Parks one thread until the state it waits for may have changed, instead of polling on a timer. The waiter says
 * what it waits for as a condition; whoever changes that state calls {@link #ring} afterwards. {@code ring} costs a
 * volatile read while nobody waits, so it can sit on paths taken once per region or per message.
 *
 * <p>No wake-up is lost: the waiter publishes itself before it evaluates its condition, and a ringer changes the
 * state before it reads whether anyone waits, so either the waiter's check sees the change or the ringer sees the
 * waiter and unparks it (an unpark before the park makes the park return at once). The state the condition reads
 * must therefore be published through locks or volatile fields, as the scheduler's deques and flags are.
 *
 * <p>One thread waits on a wake-up at a time; any number of threads may ring it.
 */
public final class Wakeup {
    private volatile Thread waiter;
    /** Times the waiter came back from a park (a ring, a timeout or a spurious return), for tests. */
    private final LongAdder parks = new LongAdder();

    /**
     * Waits until {@code ready} holds, the thread is interrupted (its flag stays set) or {@code timeoutNanos} passed.
     * Returns whether {@code ready} held.
     */
    public boolean await(BooleanSupplier ready, long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        Thread self = Thread.currentThread();
        waiter = self;
        try {
            while (!ready.getAsBoolean()) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || self.isInterrupted()) {
                    return false;
                }
                LockSupport.parkNanos(this, left);
                parks.increment();
            }
            return true;
        } finally {
            waiter = null;
        }
    }

    /** Wakes the waiting thread, if any, to check its condition again. Call after changing the state it reads. */
    public void ring() {
        Thread t = waiter;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Whether a thread waits now: lets a ringer skip a costlier check of whether the state changed at all. */
    public boolean waiting() {
        return waiter != null;
    }

    /** Times the waiter returned from a park so far. */
    public long parks() {
        return parks.sum();
    }
}
