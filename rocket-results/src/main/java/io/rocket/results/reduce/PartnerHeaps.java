package io.rocket.results.reduce;

import java.util.Arrays;

/**
 * The K best partners of every item so far: one bounded heap per item, in flat arrays allocated once
 * ({@code n × K} entries), so offering a pair allocates nothing. Each heap keeps its worst entry at the root, where a
 * better pair replaces it. A pair enters the heaps of both its items; it is kept when it is among the K best of
 * either. "Better" is a higher score, or a lower one when smaller is better; between equal scores the smaller
 * partner index wins, so the result does not depend on the order of the offers.
 *
 * <p>Thread safety: offers come from several threads; each heap is guarded by one of {@link #STRIPES} locks (the
 * item's index modulo the stripes), and the two heaps of a pair are updated one after the other, never both locked at
 * once. {@link #forEachKept} runs once every offer has returned.
 */
public final class PartnerHeaps {
    /** Locks guarding the heaps; enough that threads offering at once rarely share one. */
    static final int STRIPES = 64;

    private final int k;
    private final boolean smallerIsBetter;
    private final int[] partners;
    private final double[] scores;
    /** The results of the kept pairs, or null where only the decision matters (a node's filter). */
    private final Object[] results;
    private final int[] sizes;
    private final Object[] locks = new Object[STRIPES];

    /**
     * Empty heaps for {@code items} items.
     *
     * @param items           the items of the run
     * @param k               the partners kept per item, at least 1
     * @param smallerIsBetter whether a smaller score is better
     * @param keepResults     whether to keep each entry's result, for {@link #forEachKept}
     * @throws IllegalArgumentException when {@code k} is below 1 or {@code items × k} entries do not fit an array
     */
    public PartnerHeaps(int items, int k, boolean smallerIsBetter, boolean keepResults) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1, got " + k);
        }
        int perItem = Math.min(k, Math.max(1, items - 1));
        long entries = (long) items * perItem;
        if (entries > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(items + " items × top-k " + k + " entries do not fit in memory");
        }
        this.k = perItem;
        this.smallerIsBetter = smallerIsBetter;
        this.partners = new int[(int) entries];
        this.scores = new double[(int) entries];
        this.results = keepResults ? new Object[(int) entries] : null;
        this.sizes = new int[items];
        for (int s = 0; s < STRIPES; s++) {
            locks[s] = new Object();
        }
    }

    /**
     * Offers pair (i, j) to the heaps of both its items.
     *
     * @param i      one item
     * @param j      the other item
     * @param score  the pair's score, not NaN
     * @param result the pair's result, kept when the heaps keep results (may be null otherwise)
     * @return whether the pair is now among the best of {@code i} or of {@code j}
     */
    public boolean offer(int i, int j, double score, Object result) {
        boolean intoI = offerTo(i, j, score, result);
        boolean intoJ = offerTo(j, i, score, result);
        return intoI || intoJ;
    }

    private boolean offerTo(int item, int partner, double score, Object result) {
        synchronized (locks[item % STRIPES]) {
            int base = item * k;
            int size = sizes[item];
            if (size < k) {
                set(base + size, partner, score, result);
                siftUp(base, size);
                sizes[item] = size + 1;
                return true;
            }
            if (!worse(scores[base], partners[base], score, partner)) {
                return false; // not better than the worst of the K kept
            }
            set(base, partner, score, result);
            siftDown(base, 0, k);
            return true;
        }
    }

    /** Whether entry (a, pa) is worse than (b, pb): the heap's root is the worst entry. */
    private boolean worse(double a, int pa, double b, int pb) {
        if (a != b) {
            return smallerIsBetter ? a > b : a < b;
        }
        return pa > pb;
    }

    private void set(int at, int partner, double score, Object result) {
        partners[at] = partner;
        scores[at] = score;
        if (results != null) {
            results[at] = result;
        }
    }

    private void swap(int a, int b) {
        int p = partners[a];
        partners[a] = partners[b];
        partners[b] = p;
        double s = scores[a];
        scores[a] = scores[b];
        scores[b] = s;
        if (results != null) {
            Object r = results[a];
            results[a] = results[b];
            results[b] = r;
        }
    }

    private void siftUp(int base, int at) {
        while (at > 0) {
            int parent = (at - 1) / 2;
            if (!worse(scores[base + at], partners[base + at], scores[base + parent], partners[base + parent])) {
                return;
            }
            swap(base + at, base + parent);
            at = parent;
        }
    }

    private void siftDown(int base, int at, int size) {
        while (true) {
            int worst = at;
            for (int child = 2 * at + 1; child <= 2 * at + 2 && child < size; child++) {
                if (worse(scores[base + child], partners[base + child], scores[base + worst],
                        partners[base + worst])) {
                    worst = child;
                }
            }
            if (worst == at) {
                return;
            }
            swap(base + at, base + worst);
            at = worst;
        }
    }

    /**
     * The partners kept per item: {@code min(K, items - 1)}.
     *
     * @return the heap capacity of one item
     */
    public int perItem() {
        return k;
    }

    /**
     * Entries held over all heaps (a pair in the heaps of both its items counts twice).
     *
     * @return the number of entries
     */
    public long entries() {
        long total = 0;
        for (int item = 0; item < sizes.length; item++) {
            synchronized (locks[item % STRIPES]) {
                total += sizes[item];
            }
        }
        return total;
    }

    /** Receives one kept pair. */
    @FunctionalInterface
    public interface KeptPair {
        /**
         * One kept pair, {@code i < j}.
         *
         * @param i      the pair's first item
         * @param j      its second item
         * @param score  its score
         * @param result its result (null when the heaps keep none)
         */
        void accept(int i, int j, double score, Object result);
    }

    /**
     * Hands every kept pair to {@code out} once, item by item; a pair among the best of both its items is handed
     * over once. Reorders the heaps (sorted by partner), so no offer may follow.
     *
     * @param out receives the pairs
     */
    public void forEachKept(KeptPair out) {
        for (int item = 0; item < sizes.length; item++) {
            sortByPartner(item);
        }
        for (int item = 0; item < sizes.length; item++) {
            int base = item * k;
            for (int e = base; e < base + sizes[item]; e++) {
                int partner = partners[e];
                if (partner > item) {
                    out.accept(item, partner, scores[e], results == null ? null : results[e]);
                } else if (find(partner, item) < 0) { // the smaller item hands it over when it kept it too
                    out.accept(partner, item, scores[e], results == null ? null : results[e]);
                }
            }
        }
    }

    /** Sorts one item's entries by partner (insertion sort for small K, else through an index order). */
    private void sortByPartner(int item) {
        int base = item * k;
        int size = sizes[item];
        if (size <= 32) {
            for (int a = 1; a < size; a++) {
                for (int b = a; b > 0 && partners[base + b - 1] > partners[base + b]; b--) {
                    swap(base + b - 1, base + b);
                }
            }
            return;
        }
        long[] order = new long[size]; // once per item at the end of the run, not per pair
        for (int e = 0; e < size; e++) {
            order[e] = ((long) partners[base + e] << 32) | e;
        }
        Arrays.sort(order);
        int[] p = Arrays.copyOfRange(partners, base, base + size);
        double[] s = Arrays.copyOfRange(scores, base, base + size);
        Object[] r = results == null ? null : Arrays.copyOfRange(results, base, base + size);
        for (int e = 0; e < size; e++) {
            int from = (int) order[e];
            set(base + e, p[from], s[from], r == null ? null : r[from]);
        }
    }

    /** The position of {@code partner} in {@code item}'s sorted entries, or -1. */
    private int find(int item, int partner) {
        int base = item * k;
        int at = Arrays.binarySearch(partners, base, base + sizes[item], partner);
        return at < 0 ? -1 : at;
    }
}
