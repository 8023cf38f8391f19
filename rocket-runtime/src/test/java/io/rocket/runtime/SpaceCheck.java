package io.rocket.runtime;

import io.rocket.core.ResultSink;
import io.rocket.steal.PairSpace;
import io.rocket.testkit.SyntheticApp;

/**
 * Checks a synthetic run of a {@link PairSpace} as results arrive: every pair of the space exactly once (both
 * orientations when it is ordered), no pair outside it, each with the value its orientation gives
 * ({@link OrderedSynthetic#expected}).
 */
final class SpaceCheck implements ResultSink<Integer, Long> {
    private final long seed;
    private final PairSpace space;
    private final int n;
    private final int[] seen;
    private long outside;
    private long wrong;
    private long failed;

    SpaceCheck(long seed, PairSpace space) {
        this.seed = seed;
        this.space = space;
        this.n = space.items();
        this.seen = new int[n * n];
    }

    @Override
    public synchronized void accept(int i, int j, Integer left, Integer right, Long result) {
        mark(i, j);
        long expected = space.ordered() ? OrderedSynthetic.expected(seed, i, j) : SyntheticApp.expected(seed, i, j);
        if (left != i || right != j || result != expected) {
            wrong++;
        }
    }

    @Override
    public synchronized void failed(int i, int j, Integer left, Integer right, Throwable error) {
        mark(i, j);
        failed++;
    }

    private void mark(int i, int j) {
        boolean orientation = space.ordered() ? i != j : i < j;
        if (!orientation || i < 0 || j < 0 || i >= n || j >= n || !space.contains(i, j)) {
            outside++;
            return;
        }
        seen[i * n + j]++;
    }

    /** A one-line verdict, or null when every pair of the space arrived exactly once with the right value. */
    synchronized String problem() {
        long missing = 0;
        long duplicates = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                boolean wanted = (space.ordered() ? i != j : i < j) && space.contains(i, j);
                int count = seen[i * n + j];
                if (wanted && count == 0) {
                    missing++;
                }
                duplicates += Math.max(0, count - 1);
            }
        }
        if (missing > 0 || duplicates > 0 || outside > 0 || wrong > 0 || failed > 0) {
            return String.format("check of %s failed: %d missing, %d duplicates, %d outside, %d wrong, %d failed",
                    space.describe(), missing, duplicates, outside, wrong, failed);
        }
        return null;
    }
}
