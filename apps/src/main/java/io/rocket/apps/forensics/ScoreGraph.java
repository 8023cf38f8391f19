package io.rocket.apps.forensics;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The pairs a reduced run kept ({@code --min-score}, {@code --top-k}), gathered for clustering from the thresholded
 * graph: three flat growing arrays (i, j, score), 16 bytes per kept pair and nothing per pair that was dropped, so
 * that the clusters of a run cost memory in proportion to what was kept instead of the n² matrix. Every pair that
 * was not kept counts as the fill score ({@link FillScore}). Thread-safe: results arrive from several runtime
 * threads.
 */
public final class ScoreGraph implements PhotoScores {

    private final int n;
    private final double fill;
    private int[] left = new int[64];
    private int[] right = new int[64];
    private double[] score = new double[64];
    private int pairs;

    /**
     * A graph of {@code n} photos without pairs.
     *
     * @param n    the number of photos
     * @param fill the score every pair that was not kept counts as in the cluster averages
     */
    public ScoreGraph(int n, double fill) {
        this.n = n;
        this.fill = fill;
    }

    @Override
    public synchronized void accept(int i, int j, Path leftPhoto, Path rightPhoto, Double value) {
        if (pairs == left.length) {
            int capacity = Math.addExact(pairs, pairs);
            left = Arrays.copyOf(left, capacity);
            right = Arrays.copyOf(right, capacity);
            score = Arrays.copyOf(score, capacity);
        }
        left[pairs] = i;
        right[pairs] = j;
        score[pairs] = value;
        pairs++;
    }

    @Override
    public void failed(int i, int j, Path leftPhoto, Path rightPhoto, Throwable error) {
        // a failed pair is a pair not kept: it counts as the fill
    }

    @Override
    public int size() {
        return n;
    }

    /**
     * The number of kept pairs gathered so far.
     *
     * @return the pairs in the graph
     */
    public synchronized int pairs() {
        return pairs;
    }

    @Override
    public synchronized int[] cut(int[] loaded, double threshold) {
        // Photos that failed to load have no pairs: they stay alone, and are left out below.
        int[] all = SparseAverageLinkage.cluster(n, pairs, left, right, score, fill, threshold).cut(threshold);
        int[] renumbered = new int[n];
        Arrays.fill(renumbered, -1);
        int next = 0;
        int[] ids = new int[loaded.length];
        for (int a = 0; a < loaded.length; a++) {
            int id = all[loaded[a]];
            if (renumbered[id] < 0) {
                renumbered[id] = next++;
            }
            ids[a] = renumbered[id];
        }
        return ids;
    }

    @Override
    public synchronized String basis() {
        return String.format(Locale.ROOT, "forensics: clustered from the %,d kept pairs; every other pair counts as %s",
                pairs, fill);
    }
}
