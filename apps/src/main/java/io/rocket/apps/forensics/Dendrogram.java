package io.rocket.apps.forensics;

/**
 * The result of {@link AverageLinkage}: the n−1 merges, each joining the clusters represented by two item
 * indices at a similarity, in the order they were made (every merge comes after the merges that built its two
 * clusters). The representative of a cluster is one of its items (for {@link AverageLinkage} its smallest index
 * at the time of the merge). {@link SparseAverageLinkage} stops at its threshold: its dendrogram holds only the
 * merges at or above it, and cuts at that threshold or a higher one.
 *
 * <p>{@link #cut} flattens it at a threshold: items are in one cluster when joined by merges of similarity ≥
 * threshold. Because average linkage is monotone, these merges are exactly the subtrees hanging below the
 * threshold, so a union–find over them gives the cut without sorting.
 */
public final class Dendrogram {

    private final int items;
    private final int[] left;
    private final int[] right;
    private final double[] similarity;

    Dendrogram(int items, int[] left, int[] right, double[] similarity) {
        this.items = items;
        this.left = left;
        this.right = right;
        this.similarity = similarity;
    }

    /** Number of items clustered. */
    public int items() {
        return items;
    }

    /** Number of merges (items − 1, fewer for a dendrogram that stops at a threshold). */
    public int merges() {
        return similarity.length;
    }

    /** Representative (smaller index) of the first cluster of merge m. */
    public int left(int m) {
        return left[m];
    }

    /** Representative of the second cluster of merge m. */
    public int right(int m) {
        return right[m];
    }

    /** Average similarity at which merge m happened. */
    public double similarity(int m) {
        return similarity[m];
    }

    /**
     * Cluster ids (0, 1, … in order of each cluster's first item) for the cut at {@code threshold}: merges with
     * similarity ≥ threshold are kept.
     */
    public int[] cut(double threshold) {
        int[] parent = new int[items];
        for (int i = 0; i < items; i++) {
            parent[i] = i;
        }
        for (int m = 0; m < similarity.length; m++) {
            if (similarity[m] >= threshold) {
                int a = find(parent, left[m]);
                int b = find(parent, right[m]);
                if (a != b) {
                    parent[Math.max(a, b)] = Math.min(a, b);
                }
            }
        }
        int[] ids = new int[items];
        int[] idOfRoot = new int[items];
        java.util.Arrays.fill(idOfRoot, -1);
        int next = 0;
        for (int i = 0; i < items; i++) {
            int root = find(parent, i);
            if (idOfRoot[root] < 0) {
                idOfRoot[root] = next++;
            }
            ids[i] = idOfRoot[root];
        }
        return ids;
    }

    private static int find(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }
}
