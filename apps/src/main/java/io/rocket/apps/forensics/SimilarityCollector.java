package io.rocket.apps.forensics;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * Gathers the streamed pair scores into the condensed upper triangle that the matrix output and the clustering
 * need: n(n−1)/2 doubles (100 MB at n = 5,000). Pairs that never arrive (a photo failed to load, a pair failed)
 * stay NaN. Thread-safe: results arrive from several runtime threads.
 */
public final class SimilarityCollector implements PhotoScores {

    private final int n;
    private final double[] condensed;

    /** A collector for {@code n} photos. */
    public SimilarityCollector(int n) {
        this.n = n;
        this.condensed = new double[AverageLinkage.condensedLength(n)];
        Arrays.fill(condensed, Double.NaN);
    }

    @Override
    public synchronized void accept(int i, int j, Path left, Path right, Double score) {
        condensed[AverageLinkage.index(i, j, n)] = score;
    }

    @Override
    public void failed(int i, int j, Path left, Path right, Throwable error) {
        // nothing to keep: the pair stays NaN, which the outputs show as missing
    }

    /** Every score is here. */
    @Override
    public SimilarityCollector every() {
        return this;
    }

    @Override
    public int size() {
        return n;
    }

    /** The score of photos {@code i != j}, NaN when it did not arrive. */
    public synchronized double get(int i, int j) {
        if (i == j) {
            return Double.NaN;
        }
        return condensed[AverageLinkage.index(Math.min(i, j), Math.max(i, j), n)];
    }

    @Override
    public int[] cut(int[] loaded, double threshold) {
        return AverageLinkage.clusterCondensed(condensed(loaded), loaded.length).cut(threshold);
    }

    /** A copy of the condensed scores among the photos {@code kept} (ascending indices), for clustering. */
    public synchronized double[] condensed(int[] kept) {
        double[] out = new double[AverageLinkage.condensedLength(kept.length)];
        for (int a = 0; a < kept.length; a++) {
            for (int b = a + 1; b < kept.length; b++) {
                out[AverageLinkage.index(a, b, kept.length)] = condensed[AverageLinkage.index(kept[a], kept[b], n)];
            }
        }
        return out;
    }
}
