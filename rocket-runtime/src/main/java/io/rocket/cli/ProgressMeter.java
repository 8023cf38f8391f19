package io.rocket.cli;

import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * What the progress display counts and how it words it: pairs done (computed by this run, or resumed from a
 * journal), and in a cluster run the pairs each rank computed; from these, rates smoothed over time, an ETA and
 * one line of text.
 *
 * <p>Counting is one {@link LongAdder} add, from any thread. {@link #sample} and the text are for one thread at a
 * time (the display's). Each sample updates every rate as an exponentially weighted moving average of the rate
 * since the previous sample, with time constant {@code smoothingNanos}: a sample taken {@code dt} after the
 * previous one weighs {@code 1 - exp(-dt / smoothing)}. Rates start with the first sample that sees a pair done
 * (so the time spent joining a cluster and loading the first items does not drag them down); the ETA is the pairs
 * left divided by the smoothed rate. Resumed pairs count as done but never as a rate.
 */
final class ProgressMeter {
    private final long total;
    private final LongSupplier clock;
    private final double smoothingNanos;
    private final long startNanos;
    private final LongAdder computed = new LongAdder();
    private final LongAdder resumed = new LongAdder();
    /** One per rank in a cluster run, else null. */
    private volatile Node[] nodes;

    // The sampling state, read and written by one thread at a time.
    private long rateStartNanos;
    private long lastNanos;
    private long lastComputed;
    private boolean rating;
    private double rate;

    /**
     * @param total          the pairs of the whole run
     * @param clock          nanoseconds, as {@link System#nanoTime}
     * @param smoothingNanos the time constant of the rates' moving average
     */
    ProgressMeter(long total, LongSupplier clock, long smoothingNanos) {
        if (smoothingNanos <= 0) {
            throw new IllegalArgumentException("smoothing must be positive");
        }
        this.total = total;
        this.clock = clock;
        this.smoothingNanos = smoothingNanos;
        this.startNanos = clock.getAsLong();
        this.rateStartNanos = startNanos;
        this.lastNanos = startNanos;
    }

    /** One pair done by this run (computed or failed). */
    void pairDone() {
        computed.increment();
    }

    /** {@code count} pairs done by this run at once (a run of pairs a reduction dropped). */
    void pairsDone(int count) {
        computed.add(count);
    }

        /** One pair read back from a journal. */
    void pairResumed() {
        resumed.increment();
    }

    /** The run has {@code count} nodes: from now on rates are kept per rank. */
    void nodes(int count) {
        Node[] ns = new Node[count];
        for (int r = 0; r < count; r++) {
            ns[r] = new Node();
        }
        nodes = ns;
    }

    /** {@code rank} computed {@code pairs} more pairs; ignored before {@link #nodes} or for an unknown rank. */
    void computed(int rank, int pairs) {
        Node[] ns = nodes;
        if (ns != null && rank >= 0 && rank < ns.length) {
            ns[rank].computed.add(pairs);
        }
    }

    /** {@code rank} was lost. */
    void lost(int rank) {
        Node[] ns = nodes;
        if (ns != null && rank >= 0 && rank < ns.length) {
            ns[rank].lost = true;
        }
    }

    /** Pairs done: this run's and resumed ones, at most the total. */
    long done() {
        return Math.min(total, computed.sum() + resumed.sum());
    }

    long total() {
        return total;
    }

    /** The smoothed rate of this run's pairs per second (0 until a sample has seen pairs done). */
    double rate() {
        return rating ? rate : 0;
    }

    /** The smoothed rate of the pairs {@code rank} computes (0 until rates start, or once the rank is lost). */
    double nodeRate(int rank) {
        Node n = nodes[rank];
        return !rating || n.lost ? 0 : n.rate;
    }

    /** Seconds until every pair is done at the smoothed rate: 0 when all are, negative when unknown (no rate). */
    double etaSeconds() {
        long left = total - done();
        if (left <= 0) {
            return 0;
        }
        double r = rate();
        return r > 0 ? left / r : -1;
    }

    /** Folds the counts since the previous sample into the smoothed rates. */
    void sample() {
        long now = clock.getAsLong();
        long dt = now - lastNanos;
        if (dt <= 0) {
            return;
        }
        long c = computed.sum();
        Node[] ns = nodes;
        if (!rating && c == lastComputed && (ns == null || nodesComputed(ns) == 0)) {
            // Nothing done yet: the rates start later.
            lastNanos = now;
            rateStartNanos = now;
            return;
        }
        double alpha = rating ? 1 - Math.exp(-dt / smoothingNanos) : 1;
        rate += alpha * ((c - lastComputed) * 1e9 / dt - rate);
        lastComputed = c;
        if (ns != null) {
            for (Node n : ns) {
                long nc = n.computed.sum();
                n.rate += alpha * ((nc - n.last) * 1e9 / dt - n.rate);
                n.last = nc;
            }
        }
        lastNanos = now;
        rating = true;
    }

    private static long nodesComputed(Node[] ns) {
        long sum = 0;
        for (Node n : ns) {
            sum += n.computed.sum();
        }
        return sum;
    }

    /**
     * The progress line, e.g. {@code rocket: 12,345/79,800 pairs (15.5%), 1,234 pairs/s, ETA 0:00:54; nodes: r0
     * 310/s r1 305/s r2 0/s (lost)}, from the last {@link #sample}.
     */
    String line() {
        StringBuilder b = head();
        b.append(", ").append(rate(rate())).append(" pairs/s, ETA ").append(eta());
        appendNodes(b, false, 0);
        return b.toString();
    }

    /**
     * The line at the end of the run: rates are this run's averages since they started, with how long it took, e.g.
     * {@code rocket: 79,800/79,800 pairs (100.0%), 1,210 pairs/s, done in 0:01:06; nodes: r0 305/s r1 301/s}.
     */
    String finalLine() {
        long now = clock.getAsLong();
        return finalLine(Math.max(0, now - rateStartNanos) / 1e9, (now - startNanos) / 1e9, null);
    }

    /**
     * The line at the end of a run that returned its summary: the time and the rates are the summary's, so the two
     * agree (a cluster run's time starts when the cluster has formed, as the line says).
     *
     * @param wallSeconds the summary's wall time
     * @param cluster     whether the run was on several nodes
     */
    String finalLine(double wallSeconds, boolean cluster) {
        return finalLine(wallSeconds, wallSeconds, cluster ? " since the cluster formed" : "");
    }

    private String finalLine(double rateSeconds, double seconds, String since) {
        StringBuilder b = head();
        b.append(", ").append(rate(rateSeconds > 0 ? computed.sum() / rateSeconds : 0)).append(" pairs/s, ")
                .append(done() >= total ? "done in " : "stopped after ").append(duration(seconds))
                .append(since == null ? "" : since);
        appendNodes(b, true, rateSeconds);
        return b.toString();
    }

    /** What the terminal bar shows beside its own count: the rate, the ETA and the rates per rank. */
    String barMessage() {
        StringBuilder b = new StringBuilder().append(rate(rate())).append(" pairs/s, ETA ").append(eta());
        appendNodes(b, false, 0);
        return b.toString();
    }

    private StringBuilder head() {
        long done = done();
        StringBuilder b = new StringBuilder("rocket: ").append(count(done)).append('/').append(count(total))
                .append(" pairs (").append(String.format(Locale.ROOT, "%.1f%%", total == 0 ? 100.0 : 100.0 * done / total));
        long r = resumed.sum();
        if (r > 0) {
            b.append(", ").append(count(r)).append(" resumed");
        }
        return b.append(')');
    }

    private String eta() {
        double eta = etaSeconds();
        return eta < 0 ? "?" : duration(eta);
    }

    private void appendNodes(StringBuilder b, boolean average, double seconds) {
        Node[] ns = nodes;
        if (ns == null) {
            return;
        }
        b.append("; nodes:");
        for (int r = 0; r < ns.length; r++) {
            Node n = ns[r];
            double rate = average ? (seconds > 0 ? n.computed.sum() / seconds : 0) : nodeRate(r);
            b.append(" r").append(r).append(' ').append(rate(rate)).append("/s");
            if (n.lost) {
                b.append(" (lost)");
            }
        }
    }

    /** 12,345 */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** A rate with the digits that matter: 1,234 / 12 / 3.4 / 0.25 / 0. */
    static String rate(double perSecond) {
        if (!(perSecond >= 0.005)) {
            return "0";
        }
        if (perSecond < 0.995) {
            return String.format(Locale.ROOT, "%.2f", perSecond);
        }
        if (perSecond < 9.95) {
            return String.format(Locale.ROOT, "%.1f", perSecond);
        }
        return String.format(Locale.ROOT, "%,d", Math.round(perSecond));
    }

    /** H:MM:SS, hours unbounded; seconds rounded up so that a nearly done run does not say 0:00:00. */
    static String duration(double seconds) {
        long s = (long) Math.ceil(Math.max(0, Math.min(seconds, 1e12)));
        return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    }

    /** A rank's count and smoothed rate. */
    private static final class Node {
        final LongAdder computed = new LongAdder();
        volatile boolean lost;
        // Sampling state (the display's thread).
        long last;
        double rate;
    }
}
