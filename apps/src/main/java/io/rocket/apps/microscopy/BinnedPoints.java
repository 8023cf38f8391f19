package io.rocket.apps.microscopy;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A particle reduced to a few weighted components for the coarse search: its centred localizations binned on a
 * square grid of side b, each occupied cell becoming one component at the centroid of its points, weighted by their
 * number. At a GMM scale several times b the reduced cost is close to the full one (binning blurs each point by
 * about b/√12 per axis), for a fraction of the work: a generated particle of 1,300 localizations has about 280
 * occupied cells of 10 nm and 100 of 20 nm. Allocation-free after construction; one instance per side of a pair in each workspace.
 */
final class BinnedPoints {
    /** Cell coordinates must fit 21 bits each, the point index the other 21 bits of a sort key. */
    private static final int BITS = 21;
    private static final long MASK = (1L << BITS) - 1;

    final double[] x;
    final double[] y;
    final double[] w;
    /** Number of components. */
    int n;
    /** Sum of the weights (the localizations binned). */
    double total;
    private final long[] keys;

    BinnedPoints(int capacity) {
        if (capacity >= (1 << BITS)) {
            throw new IllegalArgumentException("at most " + ((1 << BITS) - 1) + " points, got " + capacity);
        }
        x = new double[capacity];
        y = new double[capacity];
        w = new double[capacity];
        keys = new long[capacity];
    }

    /** Writes the components as x[n], y[n], w[n] from double {@code offset} of a little-endian slot. */
    void write(ByteBuffer slot, int offset) {
        for (int k = 0; k < n; k++) {
            slot.putDouble((offset + k) * Double.BYTES, x[k]);
            slot.putDouble((offset + n + k) * Double.BYTES, y[k]);
            slot.putDouble((offset + 2 * n + k) * Double.BYTES, w[k]);
        }
    }

    /**
     * Loads {@code count} components written by {@link #write} at double {@code offset} of {@code slot}; they
     * stand for {@code points} localizations.
     */
    void load(ByteBuffer slot, int offset, int count, int points) {
        if (count < 1 || count > x.length) {
            throw new IllegalStateException("slot holds " + count + " components; this workspace fits " + x.length);
        }
        n = count;
        total = points;
        for (int k = 0; k < count; k++) {
            x[k] = slot.getDouble((offset + k) * Double.BYTES);
            y[k] = slot.getDouble((offset + count + k) * Double.BYTES);
            w[k] = slot.getDouble((offset + 2 * count + k) * Double.BYTES);
        }
    }

    /** Bins the first {@code count} points of (px, py) on cells of side {@code cell} (nm). */
    void bin(double[] px, double[] py, int count, double cell) {
        if (count > keys.length) {
            throw new IllegalStateException(count + " points; this workspace fits " + keys.length);
        }
        double minX = Double.POSITIVE_INFINITY;
        double minY = Double.POSITIVE_INFINITY;
        double maxX = Double.NEGATIVE_INFINITY;
        double maxY = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < count; k++) {
            minX = Math.min(minX, px[k]);
            minY = Math.min(minY, py[k]);
            maxX = Math.max(maxX, px[k]);
            maxY = Math.max(maxY, py[k]);
        }
        // A particle wider than 2^21 cells gets wider cells (never for particles of a few hundred nm).
        double side = Math.max(cell, Math.max(maxX - minX, maxY - minY) / (MASK - 1));
        for (int k = 0; k < count; k++) {
            long cx = Math.min(MASK, (long) ((px[k] - minX) / side));
            long cy = Math.min(MASK, (long) ((py[k] - minY) / side));
            keys[k] = (((cx << BITS) | cy) << BITS) | k;
        }
        Arrays.sort(keys, 0, count);
        n = 0;
        total = count;
        long cellOf = -1;
        for (int k = 0; k < count; k++) {
            long key = keys[k];
            int index = (int) (key & MASK);
            long c = key >>> BITS;
            if (c != cellOf) {
                cellOf = c;
                x[n] = 0;
                y[n] = 0;
                w[n] = 0;
                n++;
            }
            x[n - 1] += px[index];
            y[n - 1] += py[index];
            w[n - 1] += 1;
        }
        for (int k = 0; k < n; k++) {
            x[k] /= w[k];
            y[k] /= w[k];
        }
    }
}
