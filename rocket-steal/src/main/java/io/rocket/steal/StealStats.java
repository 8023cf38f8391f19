package io.rocket.steal;

import java.util.concurrent.atomic.LongAdder;

/** Steal attempts and successes per level (sibling worker on this node; remote node). */
public final class StealStats {
    final LongAdder localAttempts = new LongAdder();
    final LongAdder localSuccesses = new LongAdder();

    public long localAttempts() {
        return localAttempts.sum();
    }

    public long localSuccesses() {
        return localSuccesses.sum();
    }
}
