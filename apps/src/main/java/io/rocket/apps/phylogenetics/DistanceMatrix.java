package io.rocket.apps.phylogenetics;

import java.util.List;

/**
 * A symmetric matrix of pairwise distances between named items, zero on the diagonal, stored as a packed lower
 * triangle of doubles (n(n−1)/2 values: 1.6 GB for n = 20,000). Filled pair by pair as results stream in; read by
 * the tree builders and the PHYLIP writer.
 */
public final class DistanceMatrix {

    private final List<String> names;
    private final double[] lower;

    /** A zero matrix over {@code names}. */
    public DistanceMatrix(List<String> names) {
        long cells = (long) names.size() * (names.size() - 1) / 2;
        if (cells > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("too many items for one distance matrix: " + names.size());
        }
        this.names = List.copyOf(names);
        this.lower = new double[(int) Math.max(0, cells)];
    }

    /** A matrix from a full square array, which must be symmetric with a zero diagonal. */
    public static DistanceMatrix of(List<String> names, double[][] full) {
        DistanceMatrix m = new DistanceMatrix(names);
        if (full.length != names.size()) {
            throw new IllegalArgumentException(full.length + " rows for " + names.size() + " names");
        }
        for (int i = 0; i < full.length; i++) {
            if (full[i].length != names.size() || full[i][i] != 0) {
                throw new IllegalArgumentException("row " + i + " has the wrong length or a nonzero diagonal");
            }
            for (int j = 0; j < i; j++) {
                if (full[i][j] != full[j][i]) {
                    throw new IllegalArgumentException("not symmetric at (" + i + ", " + j + ")");
                }
                m.set(i, j, full[i][j]);
            }
        }
        return m;
    }

    /** Number of items. */
    public int size() {
        return names.size();
    }

    /** Name of item {@code i}. */
    public String name(int i) {
        return names.get(i);
    }

    /** All names, in index order. */
    public List<String> names() {
        return names;
    }

    /** Distance between items {@code i} and {@code j}. */
    public double get(int i, int j) {
        if (i == j) {
            return 0;
        }
        return lower[index(i, j)];
    }

    /** Sets the distance between distinct items {@code i} and {@code j} (both orders). */
    public void set(int i, int j, double distance) {
        if (i == j) {
            throw new IllegalArgumentException("the diagonal is fixed at zero (item " + i + ")");
        }
        lower[index(i, j)] = distance;
    }

    /** The packed lower triangle: entry (i, j) with i &gt; j at i(i−1)/2 + j. Shared, not copied. */
    double[] packed() {
        return lower;
    }

    static int index(int i, int j) {
        int hi = Math.max(i, j);
        int lo = Math.min(i, j);
        return (int) ((long) hi * (hi - 1) / 2) + lo;
    }
}
