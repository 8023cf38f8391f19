package io.rocket.node;

import java.util.function.BooleanSupplier;

/**
 * Packs a worker's rows of pairs into {@link PairTile}s: as many rows as fit go to the kernels as one tile, and rows
 * over the same columns share those columns' items, so a leaf of cheap pairs whose items fit the L1 is one tile, one
 * hand-off to the kernel thread and, on a GPU, one set of launches and one result copy. A tile holds at most the
 * pairs {@link NodePipeline#pairsPerTile} asks for (a few milliseconds of work), so expensive pairs go a few at a
 * time. One per leaf (or row), used by one worker; {@link #flush} submits the open tile, {@link #abandon} gives back
 * one left open by a failure.
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class TilePacker<K, R> {
    /** The pairs a run leaves out (already computed, or not its own). */
    @FunctionalInterface
    public interface PairSet {
        /** Whether pair (i, j), in that orientation, is in the set. */
        boolean contains(int i, int j);
    }

    /** Runs before each pair is added (it may block, for back-pressure). */
    @FunctionalInterface
    public interface BeforePair {
        /** Called with the device and the pair (a, b) about to be added. */
        void before(int device, int a, int b) throws InterruptedException;
    }

    private final NodePipeline<K, R> to;
    private final int device;
    private final boolean ordered;
    private final PairSet skip;
    private final BeforePair beforePair;
    private final int span;
    /** Most pairs in one tile. */
    private final int cap;
    private PairTile<K, R> tile;
    /** The open tile's latest column entries: columns [colFirst, colEnd) from entry colBase on. */
    private int colFirst;
    private int colEnd;
    private int colBase;

    /**
     * @param to the node's pipeline; its device must run tiles ({@link NodePipeline#tileSpan} above 0)
     * @param device the device the tiles go to
     * @param ordered whether each pair also runs in the other orientation
     * @param skip the pairs to leave out, or null for none
     * @param beforePair runs before each pair added, or null
     */
    public TilePacker(NodePipeline<K, R> to, int device, boolean ordered, PairSet skip, BeforePair beforePair) {
        this.to = to;
        this.device = device;
        this.ordered = ordered;
        this.skip = skip;
        this.beforePair = beforePair;
        this.cap = to.pairsPerTile(device);
        this.span = span(to.tileSpan(device), cap, ordered);
    }

    /**
     * Columns of one row piece: a tile of {@code cap} pairs is as square as the leaf allows (about sqrt(cap) rows
     * against as many columns), since a kernel that reads each item once per tile reads r + c items for r·c pairs;
     * never more than the tile's entries or pairs allow.
     */
    static int span(int tileSpan, int cap, boolean ordered) {
        int square = (int) Math.ceil(Math.sqrt(cap / (ordered ? 2.0 : 1.0)));
        return Math.max(1, Math.min(Math.min(tileSpan, cap / (ordered ? 2 : 1)), square));
    }

    /**
     * The pairs (i, j), j &gt; i, of a leaf's rows {@code [r0, r1)} against columns {@code [c0, c1)}, a block of
     * columns at a time: every row's piece over one block of columns, then the next block, so the rows of a tile
     * share their columns' items.
     *
     * @param descending whether the rows go from the last to the first (the order the schedule asked for)
     * @param stop asked before each row piece; true ends the leaf there (the rest of it is someone else's)
     */
    public void leaf(int r0, int r1, int c0, int c1, boolean descending, BooleanSupplier stop)
            throws InterruptedException {
        for (int block = c0; block < c1; block += span) {
            int blockEnd = Math.min(c1, block + span);
            for (int k = 0; k < r1 - r0; k++) {
                if (stop.getAsBoolean()) {
                    return;
                }
                int i = descending ? r1 - 1 - k : r0 + k;
                int from = Math.max(block, i + 1);
                if (from < blockEnd) {
                    piece(i, from, blockEnd);
                }
            }
        }
    }

    /** Row i over columns [c0, c1), in pieces of at most the span's columns (and the cap's pairs). */
    public void row(int i, int c0, int c1) throws InterruptedException {
        for (int from = c0; from < c1; from += span) {
            piece(i, from, Math.min(c1, from + span));
        }
    }

    private void piece(int i, int from, int until) throws InterruptedException {
        int columns = until - from;
        int pairs = (ordered ? 2 : 1) * columns;
        boolean shared = tile != null && from >= colFirst && until <= colEnd;
        if (tile != null && (!tile.fits(1 + (shared ? 0 : columns), pairs) || tile.size() + pairs > cap)) {
            flush();
            shared = false;
        }
        if (tile == null) {
            tile = to.takeTile(device);
            tile.start();
        }
        int me = tile.addItem(i);
        if (!shared) {
            colBase = tile.addItem(from);
            for (int j = from + 1; j < until; j++) {
                tile.addItem(j);
            }
            colFirst = from;
            colEnd = until;
        }
        for (int j = from; j < until; j++) {
            int column = colBase + (j - colFirst);
            if (skip == null || !skip.contains(i, j)) {
                before(i, j);
                tile.pair(me, column);
            }
            if (ordered && (skip == null || !skip.contains(j, i))) {
                before(j, i);
                tile.pair(column, me);
            }
        }
    }

    private void before(int a, int b) throws InterruptedException {
        if (beforePair != null) {
            beforePair.before(device, a, b);
        }
    }

    /** Submits the open tile, if any: its pairs, in the order added; the tile goes back to its pool when done. */
    public void flush() {
        PairTile<K, R> full = tile;
        tile = null;
        if (full != null) {
            to.submitTile(device, full);
        }
    }

    /** Gives back a tile left open by a failure; nothing when none is open. */
    public void abandon() {
        if (tile != null) {
            to.returnTile(device, tile);
            tile = null;
        }
    }
}
