package io.rocket.steal;

import java.util.function.Consumer;

/**
 * A rectangle of the pair matrix, rows [r0, r1) × columns [c0, c1), standing for the pairs (i, j) inside it with
 * i &lt; j: the unit of work a worker splits and a thief steals (a few ints, cheap to send). The low two bits of
 * {@code curve} are the Hilbert orientation of this square (swap and flip), so children are visited along the curve
 * and consecutive leaves share items. The higher bits mark the regions of the cache-aware order ({@link BandOrder}):
 * {@link #BAND}, {@link #LEAF} and {@link #ROWS_DESCENDING}; {@link #split} drops them.
 */
public record Region(int r0, int r1, int c0, int c1, int curve) {

    /** A band of the cache-aware order: a worker that takes it runs it as {@link BandOrder#expand} lays it out. */
    public static final int BAND = 1 << 2;
    /** A leaf of a band: run as it is, whatever its size. */
    public static final int LEAF = 1 << 3;
    /** A leaf whose rows are run from last to first (bands alternate, so rows just used are used again first). */
    public static final int ROWS_DESCENDING = 1 << 4;
    private static final int ORIENTATION = 3;

    /** Quadrant order of the base Hilbert "U" as (column half, row half). */
    private static final int[][] ORDER = {{0, 0}, {0, 1}, {1, 1}, {1, 0}};
    /** Orientation change of each child of the base U: swap, none, none, swap and flip. */
    private static final int[] CHILD_CURVE = {1, 0, 0, 3};

    /** The whole upper triangle of n items. */
    public static Region root(int n) {
        return new Region(0, n, 0, n, 0);
    }

    /** Number of pairs i &lt; j in the region. */
    public long pairs() {
        if (r1 <= r0 || c1 <= c0) {
            return 0;
        }
        // rows above c0 hold every column; from row c0 on, row i holds the columns i + 1 .. c1 - 1
        long whole = (long) Math.max(0, Math.min(r1, c0) - r0) * (c1 - c0);
        long lo = Math.max(r0, c0);
        long hi = Math.min(r1, c1 - 1L);
        long tail = hi > lo ? (hi - lo) * (c1 - 1L) - (lo + hi - 1) * (hi - lo) / 2 : 0;
        return whole + tail;
    }

    /** Whether the region holds at least one pair (its smallest row is below its largest column). */
    public boolean hasPairs() {
        return r1 > r0 && c1 > c0 && r0 < c1 - 1;
    }

    /** Whether the region is small enough to be run as pair jobs. */
    public boolean isLeaf(int tileSize) {
        return (curve & LEAF) != 0 || r1 - r0 <= tileSize && c1 - c0 <= tileSize;
    }

    /** Whether this is a band of the cache-aware order (see {@link BandOrder}). */
    public boolean isBand() {
        return (curve & BAND) != 0;
    }

    /** Whether this is a leaf of a band (run as it is). */
    public boolean isBandLeaf() {
        return (curve & LEAF) != 0;
    }

    /** Whether the leaf's rows are run from last to first. */
    public boolean rowsDescending() {
        return (curve & ROWS_DESCENDING) != 0;
    }

    /**
     * The leaf a worker runs first when it takes this quadtree region: the first child along the curve, down to a
     * leaf (a band's is {@link BandOrder#firstLeaf}).
     */
    public Region firstLeaf(int tileSize) {
        Region r = this;
        Region[] first = new Region[1];
        while (!r.isLeaf(tileSize)) {
            first[0] = null;
            r.split(child -> {
                if (first[0] == null) {
                    first[0] = child;
                }
            });
            r = first[0];
        }
        return r;
    }

    /**
     * The non-empty quadrants in Hilbert order, passed to {@code out} first to last. Halves are split at the
     * midpoint; a side of length 1 is not split. The quadrants are plain quadtree regions, whatever this one was.
     */
    public void split(Consumer<Region> out) {
        int rm = r1 - r0 > 1 ? r0 + (r1 - r0) / 2 : r1;
        int cm = c1 - c0 > 1 ? c0 + (c1 - c0) / 2 : c1;
        int orientation = curve & ORIENTATION;
        boolean swap = (orientation & 1) != 0;
        boolean flip = (orientation & 2) != 0;
        for (int k = 0; k < 4; k++) {
            int x = ORDER[k][0];
            int y = ORDER[k][1];
            if (swap) {
                int t = x;
                x = y;
                y = t;
            }
            if (flip) {
                x = 1 - x;
                y = 1 - y;
            }
            Region child = new Region(y == 0 ? r0 : rm, y == 0 ? rm : r1, x == 0 ? c0 : cm, x == 0 ? cm : c1,
                    orientation ^ CHILD_CURVE[k]);
            if (child.hasPairs()) {
                out.accept(child);
            }
        }
    }
}
