package io.rocket.testkit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntBinaryOperator;

/**
 * What a reduction of the results must keep, computed the plain way from every pair's score, for tests to compare a
 * run's kept pairs with: the pairs whose score lies in {@code [min, max]} and, with {@code k > 0}, of those the pairs
 * among the k best partners of either item (ties go to the smaller partner index).
 */
public final class KeptReference {
    private KeptReference() {
    }

    /** The score of pair (i, j), i &lt; j. */
    @FunctionalInterface
    public interface Scores {
        /**
         * @param i the pair's first item
         * @param j its second item
         * @return the pair's score
         */
        double score(int i, int j);
    }

    /**
     * The kept pairs, each as {@link #pair(int, int)}.
     *
     * @param n               items
     * @param scores          every pair's score
     * @param k               the best partners kept per item, 0 for all in the band
     * @param min             the smallest score kept
     * @param max             the largest score kept
     * @param smallerIsBetter whether smaller scores are better
     * @return the set of kept pairs
     */
    public static Set<Long> kept(int n, Scores scores, int k, double min, double max, boolean smallerIsBetter) {
        Set<Long> kept = new HashSet<>();
        for (int item = 0; item < n; item++) {
            List<int[]> partners = new ArrayList<>();
            for (int other = 0; other < n; other++) {
                if (other != item && inBand(score(scores, item, other), min, max)) {
                    partners.add(new int[] {other});
                }
            }
            int self = item;
            IntBinaryOperator order = (a, b) -> {
                double sa = score(scores, self, a);
                double sb = score(scores, self, b);
                int c = sa == sb ? 0 : sa < sb ? -1 : 1;
                return c != 0 ? (smallerIsBetter ? c : -c) : Integer.compare(a, b);
            };
            partners.sort((a, b) -> order.applyAsInt(a[0], b[0]));
            int take = k > 0 ? Math.min(k, partners.size()) : partners.size();
            for (int p = 0; p < take; p++) {
                int other = partners.get(p)[0];
                kept.add(pair(Math.min(item, other), Math.max(item, other)));
            }
        }
        return kept;
    }

    private static double score(Scores scores, int a, int b) {
        return a < b ? scores.score(a, b) : scores.score(b, a);
    }

    private static boolean inBand(double score, double min, double max) {
        return score >= min && score <= max;
    }

    /**
     * One pair as a set element.
     *
     * @param i the pair's first item
     * @param j its second item
     * @return {@code i << 32 | j}
     */
    public static long pair(int i, int j) {
        return ((long) i << 32) | j;
    }
}
