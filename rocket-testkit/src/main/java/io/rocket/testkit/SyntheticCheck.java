package io.rocket.testkit;

import io.rocket.core.ResultSink;

import java.util.BitSet;

/**
 * Checks a synthetic run as results arrive: every pair exactly once, each with {@code v(i) XOR v(j)} (on devices
 * that compute data; the sim device touches none, so there only the exactly-once part is checked).
 */
public final class SyntheticCheck implements ResultSink<Integer, Long> {
    private final long seed;
    private final int n;
    private final boolean checkValues;
    private final BitSet seen;
    private long duplicates;
    private long wrong;
    private long failed;
    private long count;

    public SyntheticCheck(long seed, int n, boolean checkValues) {
        this.seed = seed;
        this.n = n;
        this.checkValues = checkValues;
        this.seen = new BitSet((int) Math.min(Integer.MAX_VALUE, (long) n * n));
    }

    @Override
    public synchronized void accept(int i, int j, Integer left, Integer right, Long result) {
        mark(i, j);
        if (checkValues && result != SyntheticApp.expected(seed, i, j)) {
            wrong++;
        }
    }

    @Override
    public synchronized void failed(int i, int j, Integer left, Integer right, Throwable error) {
        mark(i, j);
        failed++;
    }

    private void mark(int i, int j) {
        if (i >= j || j >= n) {
            wrong++;
            return;
        }
        int bit = i * n + j;
        if (seen.get(bit)) {
            duplicates++;
        }
        seen.set(bit);
        count++;
    }

    /** A one-line verdict, or null when every pair arrived exactly once with the right value. */
    public synchronized String problem() {
        long expected = (long) n * (n - 1) / 2;
        long distinct = seen.cardinality();
        if (distinct != expected || duplicates > 0 || wrong > 0) {
            return String.format("check failed: %d of %d pairs seen, %d duplicates, %d wrong results",
                    distinct, expected, duplicates, wrong);
        }
        return null;
    }

    public synchronized long count() {
        return count;
    }

    public synchronized long failedCount() {
        return failed;
    }
}
