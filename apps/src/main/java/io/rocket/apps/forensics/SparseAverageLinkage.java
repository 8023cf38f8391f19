package io.rocket.apps.forensics;

/**
 * Average-linkage clustering from the kept pairs of a reduced run only, cut at a threshold: working memory
 * O(kept pairs + n), never the n² matrix that {@link AverageLinkage} needs.
 *
 * <p>Every pair that was not kept counts as one fixed <em>fill</em> score in every cluster average. Each cluster
 * holds, per neighbouring cluster (one joined to it by at least one kept pair), the sum and number of the kept
 * scores between the two ({@link NeighbourSums}); the average of clusters A and B is then
 * {@code (known sum + (|A|·|B| − known count) · fill) / (|A|·|B|)}, exactly the mean over all cross pairs of the
 * matrix in which every missing pair holds the fill. The best pair of clusters is merged while its average is at or
 * above the threshold, from a priority queue with lazy invalidation ({@link MergeQueue}): a merge bumps the merged
 * cluster's version and pushes its new averages, and entries of older versions are skipped as they come out.
 * Only averages at or above the threshold are queued, since an average changes only when one of its clusters
 * merges, which pushes it anew.
 *
 * <p>Two clusters without a kept pair between them average exactly the fill, so they never merge as long as the
 * threshold is above the fill, which is therefore required; every merge then follows a kept pair, and the
 * merges are those of average linkage on the filled matrix (the greedy best-first order gives the same clusters
 * as the nearest-neighbour chain, average linkage being reducible). The merged cluster keeps the larger neighbour
 * map and takes in the smaller one, and a merge costs O(neighbours · log queue) — about O(E log E) over a run for
 * the clustered graphs of camera identification. The queue is rebuilt when stale entries outnumber the live ones,
 * so it too stays O(E).
 */
public final class SparseAverageLinkage {

    private final int n;
    private final double fill;
    private final double threshold;
    private final NeighbourSums[] neighbours;
    private final int[] size;
    private final int[] version;
    private final MergeQueue queue = new MergeQueue();
    private final double[] removed = new double[2];
    private long liveLinks;

    private SparseAverageLinkage(int n, double fill, double threshold) {
        this.n = n;
        this.fill = fill;
        this.threshold = threshold;
        this.neighbours = new NeighbourSums[n];
        this.size = new int[n];
        this.version = new int[n];
        java.util.Arrays.fill(size, 1);
    }

    /**
     * Clusters {@code n} items from their kept pairs: pair {@code e < pairs} joins items {@code left[e]} and
     * {@code right[e]} with {@code score[e]}; NaN scores count as not kept, and a pair given twice keeps its last
     * score.
     *
     * @param n         the number of items
     * @param pairs     how many entries of the arrays are pairs
     * @param left      one item of each pair
     * @param right     the other item of each pair
     * @param score     each pair's score
     * @param fill      the score every pair that was not kept counts as
     * @param threshold the cut: clusters merge while their average is at or above it; must be above {@code fill}
     * @return the merges at or above the threshold (a partial dendrogram: cut it at {@code threshold} or higher)
     * @throws IllegalArgumentException when the threshold is not above the fill, or a pair names an item outside
     *                                  {@code 0..n-1} or the same item twice
     */
    public static Dendrogram cluster(int n, int pairs, int[] left, int[] right, double[] score, double fill,
                                     double threshold) {
        if (!(threshold > fill)) {
            throw new IllegalArgumentException("the threshold " + threshold + " must be above the fill score " + fill
                    + ": clusters with no kept pair between them average the fill");
        }
        SparseAverageLinkage linkage = new SparseAverageLinkage(n, fill, threshold);
        for (int e = 0; e < pairs; e++) {
            linkage.addPair(left[e], right[e], score[e]);
        }
        return linkage.run();
    }

    private void addPair(int i, int j, double s) {
        if (i < 0 || j < 0 || i >= n || j >= n || i == j) {
            throw new IllegalArgumentException("pair (" + i + ", " + j + ") is not a pair of 2 of " + n + " items");
        }
        if (Double.isNaN(s)) {
            return;
        }
        long before = mapOf(i).size();
        mapOf(i).putSingle(j, s);
        mapOf(j).putSingle(i, s);
        liveLinks += mapOf(i).size() - before;
    }

    private NeighbourSums mapOf(int cluster) {
        if (neighbours[cluster] == null) {
            neighbours[cluster] = new NeighbourSums();
        }
        return neighbours[cluster];
    }

    private Dendrogram run() {
        fillQueue();
        int[] mergedLeft = new int[Math.max(0, n - 1)];
        int[] mergedRight = new int[Math.max(0, n - 1)];
        double[] height = new double[Math.max(0, n - 1)];
        int merges = 0;
        while (queue.size() > 0) {
            double avg = queue.topAverage();
            int a = queue.topA();
            int b = queue.topB();
            boolean live = version[a] == queue.topVersionA() && version[b] == queue.topVersionB();
            queue.pop();
            if (!live) {
                continue;
            }
            mergedLeft[merges] = Math.min(a, b);
            mergedRight[merges] = Math.max(a, b);
            height[merges] = avg;
            merges++;
            int keep = merge(a, b);
            pushAverages(keep);
            if (queue.size() > 2 * liveLinks + n) {
                fillQueue(); // drop the stale entries
            }
        }
        return new Dendrogram(n, java.util.Arrays.copyOf(mergedLeft, merges),
                java.util.Arrays.copyOf(mergedRight, merges), java.util.Arrays.copyOf(height, merges));
    }

    /** Queues every current pair of clusters whose average passes the threshold. */
    private void fillQueue() {
        queue.clear();
        for (int c = 0; c < n; c++) {
            NeighbourSums map = neighbours[c];
            if (map == null || version[c] < 0) {
                continue;
            }
            for (int slot = 0; slot < map.capacity(); slot++) {
                int k = map.key(slot);
                if (k > c) {
                    offer(c, k, map.sum(slot), map.count(slot));
                }
            }
        }
    }

    /** Queues the new averages of cluster {@code c} with each of its neighbours. */
    private void pushAverages(int c) {
        NeighbourSums map = neighbours[c];
        if (map == null) {
            return;
        }
        for (int slot = 0; slot < map.capacity(); slot++) {
            int k = map.key(slot);
            if (k >= 0) {
                offer(Math.min(c, k), Math.max(c, k), map.sum(slot), map.count(slot));
            }
        }
    }

    private void offer(int a, int b, double sum, int count) {
        double pairsBetween = (double) size[a] * size[b];
        double avg = (sum + (pairsBetween - count) * fill) / pairsBetween;
        if (avg >= threshold) {
            queue.push(avg, a, b, version[a], version[b]);
        }
    }

    /**
     * Merges clusters {@code a} and {@code b}: the one with more neighbours stays (its map takes in the other's),
     * and the neighbours of the one that goes are told of the new cluster.
     *
     * @return the cluster that stays
     */
    private int merge(int a, int b) {
        int sa = neighbours[a] == null ? 0 : neighbours[a].size();
        int sb = neighbours[b] == null ? 0 : neighbours[b].size();
        int keep = sa > sb || (sa == sb && a < b) ? a : b;
        int gone = keep == a ? b : a;
        NeighbourSums kept = mapOf(keep);
        NeighbourSums going = mapOf(gone);
        kept.remove(gone, removed);
        going.remove(keep, removed);
        liveLinks--;
        for (int slot = 0; slot < going.capacity(); slot++) {
            int k = going.key(slot);
            if (k < 0) {
                continue;
            }
            NeighbourSums other = neighbours[k];
            other.remove(gone, removed);
            int linksBefore = kept.size();
            other.add(keep, going.sum(slot), going.count(slot));
            kept.add(k, going.sum(slot), going.count(slot));
            if (kept.size() == linksBefore) {
                liveLinks--; // k was a neighbour of both: two links became one
            }
        }
        neighbours[gone] = null;
        version[gone] = -1; // never matches a queued version again
        version[keep]++;
        size[keep] += size[gone];
        return keep;
    }
}
