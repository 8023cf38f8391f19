package io.rocket.apps.phylogenetics;

/**
 * A shrinking copy of a distance matrix for agglomerative tree building (neighbour joining, UPGMA). Active items
 * occupy slots 0..size−1 of a packed lower triangle; removing a slot moves the last one into its place, so scans
 * stay over contiguous memory and the matrix never needs more than its initial n(n−1)/2 doubles.
 */
final class WorkingMatrix {

    private final double[] d;
    private int size;

    WorkingMatrix(DistanceMatrix source) {
        this.d = source.packed().clone();
        this.size = source.size();
    }

    int size() {
        return size;
    }

    double get(int i, int j) {
        return i == j ? 0 : d[DistanceMatrix.index(i, j)];
    }

    void set(int i, int j, double value) {
        d[DistanceMatrix.index(i, j)] = value;
    }

    /** The packed triangle: row i (i &gt; 0) holds (i, 0..i−1) from {@code rowStart(i)}. */
    double[] packed() {
        return d;
    }

    static int rowStart(int i) {
        return (int) ((long) i * (i - 1) / 2);
    }

    /** Removes slot {@code slot}; the last slot's distances move into it (callers move their per-slot data too). */
    void remove(int slot) {
        int last = size - 1;
        if (slot != last) {
            for (int k = 0; k < last; k++) {
                if (k != slot) {
                    set(slot, k, get(last, k));
                }
            }
        }
        size--;
    }
}
