package io.rocket.apps.forensics;

/**
 * Average-linkage (UPGMA) agglomerative clustering on a similarity matrix, by the nearest-neighbour-chain
 * algorithm: O(n²) time and n(n−1)/2 doubles of working memory (100 MB at n = 5000).
 *
 * <p>The similarity of two clusters is the mean similarity over all cross pairs; merging A and B updates every
 * other cluster K by the Lance–Williams rule s(K, A∪B) = (|A|·s(K, A) + |B|·s(K, B)) / (|A| + |B|). The chain
 * follows most-similar neighbours until two clusters are each other's best match and merges them; because
 * average linkage is reducible (a merge never makes a third cluster more similar to the union than it was to the
 * closer part), this yields the same dendrogram as the naive O(n³) loop, only not in height order, and the
 * dendrogram is monotone. Ties prefer the chain's previous element, which guarantees progress. Missing
 * similarities (NaN, e.g. a pair whose photo failed to load) count as 0: no evidence of a common camera.
 */
public final class AverageLinkage {

    private AverageLinkage() {
    }

    /** Clusters a full row-major n×n similarity matrix (only the upper triangle i &lt; j is read). */
    public static Dendrogram cluster(double[] similarity, int n) {
        if ((long) n * n > similarity.length) {
            throw new IllegalArgumentException("a " + n + "x" + n + " matrix needs " + (long) n * n + " values, got "
                    + similarity.length);
        }
        double[] condensed = new double[condensedLength(n)];
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                condensed[index(i, j, n)] = similarity[i * n + j];
            }
        }
        return clusterCondensed(condensed, n);
    }

    /**
     * Clusters a condensed upper triangle: the similarity of i &lt; j at {@link #index}. The array is used as
     * working memory and is overwritten.
     */
    public static Dendrogram clusterCondensed(double[] s, int n) {
        for (int i = 0; i < s.length; i++) {
            if (Double.isNaN(s[i])) {
                s[i] = 0.0;
            }
        }
        int[] size = new int[n];
        boolean[] active = new boolean[n];
        java.util.Arrays.fill(size, 1);
        java.util.Arrays.fill(active, true);
        int[] chain = new int[n];
        int top = 0;
        int[] left = new int[Math.max(0, n - 1)];
        int[] right = new int[Math.max(0, n - 1)];
        double[] height = new double[Math.max(0, n - 1)];
        int merges = 0;
        int nextStart = 0;
        while (merges < n - 1) {
            if (top == 0) {
                while (!active[nextStart]) {
                    nextStart++;
                }
                chain[top++] = nextStart;
            }
            int a = chain[top - 1];
            int previous = top >= 2 ? chain[top - 2] : -1;
            int best = previous;
            double bestSim = previous >= 0 ? s[index(Math.min(a, previous), Math.max(a, previous), n)]
                    : Double.NEGATIVE_INFINITY;
            for (int k = 0; k < n; k++) {
                if (k == a || !active[k]) {
                    continue;
                }
                double v = s[k < a ? index(k, a, n) : index(a, k, n)];
                if (v > bestSim || best < 0) {
                    bestSim = v;
                    best = k;
                }
            }
            if (best == previous) {
                top -= 2;
                left[merges] = Math.min(a, best);
                right[merges] = Math.max(a, best);
                height[merges] = bestSim;
                merges++;
                merge(s, n, size, active, Math.min(a, best), Math.max(a, best));
            } else {
                chain[top++] = best;
            }
        }
        return new Dendrogram(n, left, right, height);
    }

    /** Merges cluster {@code gone} into {@code keep}, updating similarities by the Lance–Williams rule. */
    private static void merge(double[] s, int n, int[] size, boolean[] active, int keep, int gone) {
        double wa = size[keep];
        double wb = size[gone];
        double total = wa + wb;
        for (int k = 0; k < n; k++) {
            if (!active[k] || k == keep || k == gone) {
                continue;
            }
            int ia = k < keep ? index(k, keep, n) : index(keep, k, n);
            int ib = k < gone ? index(k, gone, n) : index(gone, k, n);
            s[ia] = (wa * s[ia] + wb * s[ib]) / total;
        }
        active[gone] = false;
        size[keep] += size[gone];
    }

    /** Length of the condensed upper triangle for n items. */
    public static int condensedLength(int n) {
        long len = (long) n * (n - 1) / 2;
        if (len > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("too many items for one condensed matrix: " + n);
        }
        return (int) len;
    }

    /** Position of pair i &lt; j in the condensed upper triangle. */
    public static int index(int i, int j, int n) {
        return (int) ((long) i * (2L * n - i - 1) / 2 + (j - i - 1));
    }
}
