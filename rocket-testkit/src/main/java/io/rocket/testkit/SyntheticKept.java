package io.rocket.testkit;

import java.util.HashSet;
import java.util.Set;

/**
 * The pairs a reduction keeps of a synthetic run, worked out from the formula alone: a second, plain implementation
 * of the runtime's reductions (a band of scores, then the K best partners of each item, larger scores first and the
 * smaller partner index between equals) to check theirs against. One pass over the space's pairs, K entries per item.
 */
final class SyntheticKept {
    /** A pair's result. */
    interface Value {
        long of(int i, int j);
    }

    private final int k;
    private final double[] scores;
    private final int[] partners;
    private final int[] sizes;
    /** Each full heap's worst entry, so most offers are turned away by one comparison. */
    private final int[] worst;

    private SyntheticKept(int n, int k) {
        this.k = k;
        this.scores = new double[n * k];
        this.partners = new int[n * k];
        this.sizes = new int[n];
        this.worst = new int[n];
    }

    /**
     * The kept pairs, each as {@code i << 32 | j} with i &lt; j.
     *
     * @param n       the items
     * @param queries 0 for every pair; else the first {@code queries} items against the others
     * @param keep    the reduction
     * @param value   each pair's result
     * @return the pairs the reduction keeps
     */
    static Set<Long> of(int n, int queries, SyntheticCheck.Keep keep, Value value) {
        Set<Long> out = new HashSet<>();
        SyntheticKept heaps = keep.topK() > 0 ? new SyntheticKept(n, keep.topK()) : null;
        int rows = queries == 0 ? n : queries;
        for (int i = 0; i < rows; i++) {
            for (int j = queries == 0 ? i + 1 : queries; j < n; j++) {
                double score = value.of(i, j);
                if (score < keep.min() || score > keep.max()) {
                    continue;
                }
                if (heaps == null) {
                    out.add((long) i << 32 | j);
                } else {
                    heaps.offer(i, j, score);
                    heaps.offer(j, i, score);
                }
            }
        }
        if (heaps != null) {
            for (int item = 0; item < n; item++) {
                for (int e = item * heaps.k; e < item * heaps.k + heaps.sizes[item]; e++) {
                    int partner = heaps.partners[e];
                    out.add((long) Math.min(item, partner) << 32 | Math.max(item, partner));
                }
            }
        }
        return out;
    }

    private void offer(int item, int partner, double score) {
        int base = item * k;
        if (sizes[item] < k) {
            scores[base + sizes[item]] = score;
            partners[base + sizes[item]] = partner;
            if (++sizes[item] == k) {
                worst[item] = findWorst(base);
            }
            return;
        }
        int w = worst[item];
        if (better(score, partner, scores[w], partners[w])) {
            scores[w] = score;
            partners[w] = partner;
            worst[item] = findWorst(base);
        }
    }

    private int findWorst(int base) {
        int w = base;
        for (int e = base + 1; e < base + k; e++) {
            if (better(scores[w], partners[w], scores[e], partners[e])) {
                w = e;
            }
        }
        return w;
    }

    private static boolean better(double score, int partner, double than, int thanPartner) {
        return score > than || score == than && partner < thanPartner;
    }
}
