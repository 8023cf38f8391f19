package io.rocket.cluster;

import java.util.function.LongSupplier;

/**
 * How fast this node computes, in pairs per second, measured during the run: a moving average over about the last
 * {@link #TIME_CONSTANT_SECONDS} of the node's pair count, sampled at most every {@link #SAMPLE_NANOS}. Intervals in
 * which the node finished no pair do not count, so a node waiting for work keeps the rate it computed at instead of
 * looking slow (a node that is never given work keeps rate 0, unknown). The rates decide how large a share of its
 * work a victim gives a thief, and which nodes are worth duplicating.
 *
 * <p>Thread-safe: the steal agent samples it, the receive thread reads it when it answers a request.
 */
public final class NodeRate {
    static final long SAMPLE_NANOS = 200_000_000;
    static final double TIME_CONSTANT_SECONDS = 1.0;

    private final LongSupplier pairs;
    private long lastNanos = System.nanoTime();
    private long lastPairs;
    private double rate;

    /** @param pairs the pairs this node has finished so far */
    public NodeRate(LongSupplier pairs) {
        this.pairs = pairs;
        this.lastPairs = pairs.getAsLong();
    }

    /** The rate as of now: samples first when the last sample is old enough; 0 while unknown. */
    synchronized double rate() {
        long now = System.nanoTime();
        long elapsed = now - lastNanos;
        if (elapsed >= SAMPLE_NANOS) {
            long count = pairs.getAsLong();
            long done = count - lastPairs;
            lastNanos = now;
            lastPairs = count;
            if (done > 0) {
                double seconds = elapsed / 1e9;
                double instant = done / seconds;
                double weight = 1 - Math.exp(-seconds / TIME_CONSTANT_SECONDS);
                rate = rate == 0 ? instant : rate + weight * (instant - rate);
            }
        }
        return rate;
    }

    /** Nanoseconds until {@link #rate} takes its next sample (0 when it is due). */
    synchronized long nanosToNextSample() {
        return Math.max(0, SAMPLE_NANOS - (System.nanoTime() - lastNanos));
    }

    /** A rate read from the network: anything but a finite positive number means unknown (0). */
    static double sane(float value) {
        return value > 0 && Float.isFinite(value) ? value : 0;
    }
}
