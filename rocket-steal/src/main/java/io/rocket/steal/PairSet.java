package io.rocket.steal;

import io.rocket.core.summary.PerformanceModel;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Consumer;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipException;

/**
 * A set of pairs i &lt; j of n items: the one record of which pairs are done. It is rank 0's finished-pair record, the
 * pairs a journal recovered, the pairs workers skip on resume, the pairs outside a run's {@link PairSpace} (marked
 * done before it starts), and the source of the regions re-run after a node is lost. Thread-safe.
 *
 * <p>The pair matrix is cut into square tiles of {@link #DEFAULT_TILE} × {@link #DEFAULT_TILE} items, and a tile is
 * kept in one of three states: no pair done (nothing stored), every pair done (a shared marker), or some done (its own
 * bitmap, 32 KiB). Runs finish tiles along the work order, so memory follows the frontier between done and not yet
 * done, not the pairs: 10⁶ items (5·10¹¹ pairs, 62.5 GB as one bitmap) take a table of 1.9 million tiles (8–12 bytes
 * each) plus some 3,400 bitmaps on the frontier, about 130 MB in all; the tile side is the one that made that sum
 * smallest (decision 0031). The largest run it tracks is {@link #maxItems(boolean)} items.
 *
 * <p>An <em>ordered</em> set (for applications whose f is not symmetric) holds both orientations of every pair: pair
 * (j, i), j &gt; i, is the cell below the diagonal, and the tiles cover the whole square. A region then counts as all
 * missing only when both orientations of all its pairs are.
 */
public final class PairSet {
    /** The side of a tile, in items: a power of two. */
    public static final int DEFAULT_TILE = 512;
    /** The state of a tile whose every pair is in the set. */
    private static final long[] FULL = new long[0];
    private static final int EMPTY_TAG = 0;
    private static final int FULL_TAG = 1;
    private static final int BITS_TAG = 2;

    private final int n;
    private final boolean ordered;
    private final int shift;
    private final int side;
    /** Tiles per side of the matrix. */
    private final int grid;
    /** Pairs i &lt; j: the cells of one orientation. */
    private final long triangle;
    private final long total;
    /** Each tile's state: null (none in the set), {@link #FULL}, or its bitmap of side² bits, row-major. */
    private final long[][] tiles;
    /** Cells in the set of each tile that holds a bitmap. */
    private final int[] counts;
    private long count;

    /**
     * An empty set of the unordered pairs i &lt; j of {@code n} items.
     *
     * @param n the items
     */
    public PairSet(int n) {
        this(n, false);
    }

    /**
     * An empty set of the pairs of {@code n} items, in both orientations when {@code ordered}.
     *
     * @param n       the items
     * @param ordered whether (i, j) and (j, i) are different pairs
     */
    public PairSet(int n, boolean ordered) {
        this(n, ordered, DEFAULT_TILE);
    }

    /**
     * An empty set with tiles of {@code tile} items a side (tests use small ones to exercise tile edges).
     *
     * @param n       the items
     * @param ordered whether (i, j) and (j, i) are different pairs
     * @param tile    the side of a tile, a power of two from 8
     */
    public PairSet(int n, boolean ordered, int tile) {
        if (tile < 8 || Integer.bitCount(tile) != 1) {
            throw new IllegalArgumentException("tile side " + tile + " is not a power of two from 8");
        }
        if (n < 0 || n > maxItems(ordered, tile)) {
            throw new IllegalArgumentException(n + " items: more than a run tracks (" + maxItems(ordered, tile)
                    + "; see PairLimit)");
        }
        this.n = n;
        this.ordered = ordered;
        this.shift = Integer.numberOfTrailingZeros(tile);
        this.side = tile;
        this.grid = (int) (((long) n + tile - 1) >>> shift);
        this.triangle = PerformanceModel.pairs(n);
        this.total = ordered ? 2 * triangle : triangle;
        int tileCount = (int) tileCount(grid, ordered);
        this.tiles = new long[tileCount][];
        this.counts = new int[tileCount];
    }

    /**
     * The most items a set tracks: as many as keep its table of tiles within one Java array.
     *
     * @param ordered whether both orientations of each pair are tracked
     * @return the item limit with the default tile
     */
    public static int maxItems(boolean ordered) {
        return maxItems(ordered, DEFAULT_TILE);
    }

    private static int maxItems(boolean ordered, int tile) {
        long g = ordered ? (long) Math.sqrt(Integer.MAX_VALUE - 8.0) : (long) Math.sqrt(2.0 * (Integer.MAX_VALUE - 8));
        while (tileCount(g, ordered) > Integer.MAX_VALUE - 8) {
            g--;
        }
        return (int) Math.min(Integer.MAX_VALUE, g * tile);
    }

    private static long tileCount(long grid, boolean ordered) {
        return ordered ? grid * grid : grid * (grid + 1) / 2;
    }

    public int items() {
        return n;
    }

    /** Whether (i, j) and (j, i) are different pairs of this set. */
    public boolean ordered() {
        return ordered;
    }

    /** The pairs of {@code region} this set can hold: its pairs i &lt; j, twice when ordered. */
    public long pairsOf(Region region) {
        return ordered ? 2 * region.pairs() : region.pairs();
    }

    /** All pairs of the run. */
    public long total() {
        return total;
    }

    /** Adds the pair; true when it was not in the set. */
    public synchronized boolean add(int i, int j) {
        int row = ordered ? i : Math.min(i, j);
        int col = ordered ? j : Math.max(i, j);
        int t = tileOf(row >>> shift, col >>> shift);
        long[] bits = tiles[t];
        if (bits == FULL) {
            return false;
        }
        if (bits == null) {
            bits = newBitmap();
            tiles[t] = bits;
        }
        int cell = cell(row, col);
        long bit = 1L << cell;
        if ((bits[cell >>> 6] & bit) != 0) {
            return false;
        }
        bits[cell >>> 6] |= bit;
        count++;
        if (++counts[t] == capacity(row >>> shift, col >>> shift)) {
            tiles[t] = FULL;
            counts[t] = 0;
        }
        return true;
    }

    /**
     * Whether the set holds pair (i, j).
     *
     * @param i the pair's first item
     * @param j the pair's second item, not i
     * @return whether it is in the set
     */
    public synchronized boolean contains(int i, int j) {
        return holds(i, j);
    }

    /** {@link #contains} without the lock, for a set nobody changes any more ({@link PairMask}). */
    boolean holds(int i, int j) {
        int row = ordered ? i : Math.min(i, j);
        int col = ordered ? j : Math.max(i, j);
        long[] bits = tiles[tileOf(row >>> shift, col >>> shift)];
        if (bits == null || bits == FULL) {
            return bits == FULL;
        }
        int cell = cell(row, col);
        return (bits[cell >>> 6] & 1L << cell) != 0;
    }

    /** Pairs in the set. */
    public synchronized long size() {
        return count;
    }

    /**
     * The tiles that hold a bitmap now (some of their pairs done, not all): with the table of tiles, what the set
     * takes in memory beyond a few bytes a tile.
     *
     * @return tiles with a bitmap
     */
    public synchronized int bitmapTiles() {
        int bitmaps = 0;
        for (long[] bits : tiles) {
            bitmaps += bits != null && bits != FULL ? 1 : 0;
        }
        return bitmaps;
    }

    /**
     * The bytes of one tile's bitmap.
     *
     * @return side² / 8
     */
    public long bitmapBytes() {
        return (long) side * side / 8;
    }

    /**
     * The tiles of the set's table.
     *
     * @return how many tiles cover its pairs
     */
    public int tiles() {
        return tiles.length;
    }

    public synchronized boolean isComplete() {
        return count == total;
    }

    /** A copy of the set, to add to apart from this one. */
    public synchronized PairSet copy() {
        PairSet copy = new PairSet(n, ordered, side);
        for (int t = 0; t < tiles.length; t++) {
            long[] bits = tiles[t];
            copy.tiles[t] = bits == null || bits == FULL ? bits : bits.clone();
        }
        System.arraycopy(counts, 0, copy.counts, 0, counts.length);
        copy.count = count;
        return copy;
    }

    /** Adds every pair of {@code region} (both orientations, when ordered). */
    public synchronized void addRegion(Region region) {
        setRegion(region, true);
    }

    /** Removes every pair of {@code region} (both orientations, when ordered). */
    public synchronized void removeRegion(Region region) {
        setRegion(region, false);
    }

    /** Adds every pair of {@code other}, a set of as many items and the same orientation. */
    public void addAll(PairSet other) {
        if (other.n != n || other.ordered != ordered || other.side != side) {
            throw new IllegalArgumentException("pair sets of different items, orientation or tiles");
        }
        PairSet theirs = other.copy();
        synchronized (this) {
            for (int t = 0; t < tiles.length; t++) {
                long[] mine = tiles[t];
                long[] add = theirs.tiles[t];
                if (add == null || mine == FULL) {
                    continue;
                }
                if (add == FULL || mine == null) {
                    count += (add == FULL ? capacity(t) : theirs.counts[t]) - (mine == null ? 0 : counts[t]);
                    tiles[t] = add;
                    counts[t] = add == FULL ? 0 : theirs.counts[t];
                    continue;
                }
                int cells = 0;
                for (int w = 0; w < mine.length; w++) {
                    mine[w] |= add[w];
                    cells += Long.bitCount(mine[w]);
                }
                count += cells - counts[t];
                settle(t, cells);
            }
        }
    }

    /** The pairs not in this set, as a new set. */
    public synchronized PairSet complement() {
        PairSet out = new PairSet(n, ordered, side);
        for (int t = 0; t < tiles.length; t++) {
            long[] bits = tiles[t];
            if (bits == null) {
                out.tiles[t] = FULL;
            } else if (bits != FULL) {
                long[] flipped = fullBitmap(t);
                for (int w = 0; w < flipped.length; w++) {
                    flipped[w] &= ~bits[w];
                }
                out.tiles[t] = flipped;
                out.counts[t] = (int) (capacity(t) - counts[t]);
            }
        }
        out.count = total - count;
        return out;
    }

    /** A copy of the set that cannot change, for lookups without a lock on every pair. */
    public PairMask mask() {
        PairSet frozen = copy();
        return new PairMask(frozen, frozen.size());
    }

    /**
     * The set deflated, for a message: each tile's state in tile order (empty, full, or its bitmap), so empty and
     * finished stretches of the run shrink to little.
     *
     * @return the deflated tiles
     */
    public synchronized byte[] toCompressed() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(
                new DeflaterOutputStream(bytes, deflater, 1 << 16), 1 << 16))) {
            for (long[] bits : tiles) {
                out.writeByte(bits == null ? EMPTY_TAG : bits == FULL ? FULL_TAG : BITS_TAG);
                if (bits != null && bits != FULL) {
                    for (long word : bits) {
                        out.writeLong(word);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory: cannot happen
        } finally {
            deflater.end();
        }
        return bytes.toByteArray();
    }

    /**
     * Adds every pair of {@code compressed} (from {@link #toCompressed} of a set of as many items, orientation and
     * tiles). The bytes are checked as they inflate, a tile at a time, so no input makes this allocate more than one
     * tile's bitmap: a state that is not one of the three, a bit outside the run's pairs, data cut short or going on
     * past the last tile, or bytes that are not deflate data are errors.
     *
     * @param compressed the deflated tiles; empty for none
     * @throws IllegalArgumentException naming what is wrong with the bytes
     */
    public void addCompressed(byte[] compressed) {
        if (compressed.length == 0) {
            return;
        }
        PairSet decoded = new PairSet(n, ordered, side);
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(new InflaterInputStream(
                new ByteArrayInputStream(compressed)), 1 << 16))) {
            for (int t = 0; t < tiles.length; t++) {
                decoded.readTile(t, in);
            }
            if (in.read() >= 0) {
                throw new IllegalArgumentException("pair set inflates to more than the run's " + tiles.length
                        + " tiles");
            }
        } catch (EOFException e) {
            throw new IllegalArgumentException("pair set is cut short", e);
        } catch (ZipException e) {
            throw new IllegalArgumentException("pair set is not deflate data: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        addAll(decoded);
    }

    private void readTile(int t, DataInputStream in) throws IOException {
        int tag = in.readUnsignedByte();
        if (tag == EMPTY_TAG) {
            return;
        }
        if (tag == FULL_TAG) {
            tiles[t] = FULL;
            count += capacity(t);
            return;
        }
        if (tag != BITS_TAG) {
            throw new IllegalArgumentException("pair set tile " + t + " has state " + tag + ", not 0, 1 or 2");
        }
        long[] bits = newBitmap();
        for (int w = 0; w < bits.length; w++) {
            bits[w] = in.readLong();
        }
        long[] valid = fullBitmap(t);
        int cells = 0;
        for (int w = 0; w < bits.length; w++) {
            if ((bits[w] & ~valid[w]) != 0) {
                throw new IllegalArgumentException("pair set tile " + t + " holds bits outside the run's pairs");
            }
            cells += Long.bitCount(bits[w]);
        }
        if (cells > 0) {
            tiles[t] = bits;
            count += cells;
            settle(t, cells);
        }
    }

    /** Pairs of {@code region} not in the set (both orientations, when ordered). */
    public synchronized long missing(Region region) {
        long[] missing = {0};
        visit(region, (t, full, rowOffsets) -> {
            long[] bits = tiles[t];
            if (bits == FULL) {
                return;
            }
            rowOffsets.forEach((offset, length) -> missing[0] += length
                    - (bits == null ? 0 : countBits(bits, offset, offset + length)));
        });
        return missing[0];
    }

    /**
     * The regions that hold every pair missing from the set, in curve order: whole quadtree squares where all of
     * their pairs are missing, tile leaves where only some are (those leaves' done pairs are run again).
     */
    public void missingRegions(int tileSize, Consumer<Region> out) {
        missingRegions(Region.root(n), tileSize, out);
    }

    /** As {@link #missingRegions(int, Consumer)}, within {@code region}. */
    public synchronized void missingRegions(Region region, int tileSize, Consumer<Region> out) {
        addMissing(region, tileSize, out);
    }

    private void addMissing(Region region, int tileSize, Consumer<Region> out) {
        long missing = missing(region);
        if (missing == 0) {
            return;
        }
        if (missing == pairsOf(region) || region.isLeaf(tileSize)) {
            out.accept(region);
        } else {
            region.split(child -> addMissing(child, tileSize, out));
        }
    }

    private void setRegion(Region region, boolean value) {
        visit(region, (t, whole, rowOffsets) -> {
            long[] bits = tiles[t];
            if (bits == (value ? FULL : null)) {
                return;
            }
            if (whole) { // the region covers the tile: no bitmap needed
                count += value ? capacity(t) - cellsOf(t) : -cellsOf(t);
                tiles[t] = value ? FULL : null;
                counts[t] = 0;
                return;
            }
            long[] target = bits == null ? newBitmap() : bits == FULL ? fullBitmap(t) : bits;
            int[] delta = {0}; // counted over the runs set, not the whole bitmap: a leaf is a small part of a tile
            rowOffsets.forEach((offset, length) -> {
                int had = countBits(target, offset, offset + length);
                setBits(target, offset, offset + length, value);
                delta[0] += value ? length - had : -had;
            });
            int before = cellsOf(t);
            tiles[t] = target;
            count += delta[0];
            settle(t, before + delta[0]);
        });
    }

    /** Records a bitmap tile's cell count, and trades the bitmap for a state when it is empty or full. */
    private void settle(int t, int cells) {
        counts[t] = cells;
        if (cells == 0) {
            tiles[t] = null;
        } else if (cells == capacity(t)) {
            tiles[t] = FULL;
            counts[t] = 0;
        }
    }

    private int cellsOf(int t) {
        long[] bits = tiles[t];
        return bits == null ? 0 : bits == FULL ? (int) capacity(t) : counts[t];
    }

    /** A bitmap of every valid cell of tile t (its pairs): a full tile's bitmap, and the mask of what may be set. */
    private long[] fullBitmap(int t) {
        long[] bits = newBitmap();
        forEachRow(t, (offset, length) -> setBits(bits, offset, offset + length, true));
        return bits;
    }

    private long[] newBitmap() {
        return new long[side * side / 64];
    }

    /** What a region covers in one tile: row runs of cells, as offsets into the tile's bitmap. */
    private interface TileVisit {
        void at(int tile, boolean whole, Rows rows);
    }

    /** The runs of cells of one tile that a region covers. */
    private interface Rows {
        void forEach(RowRun run);
    }

    /** One run of cells in a tile's bitmap. */
    private interface RowRun {
        void accept(int offset, int length);
    }

    /**
     * Calls {@code visit} for every tile the region's pairs touch: the cells of its pairs i &lt; j (upper) and, when
     * ordered, of their other orientation (the transposed rectangle, below the diagonal).
     */
    private void visit(Region region, TileVisit visit) {
        int r0 = Math.max(0, region.r0());
        int r1 = Math.min(n, region.r1());
        int c0 = Math.max(0, region.c0());
        int c1 = Math.min(n, region.c1());
        if (r0 >= r1 || c0 >= c1) {
            return;
        }
        visitCells(r0, r1, c0, c1, true, visit);
        if (ordered) {
            visitCells(c0, c1, r0, r1, false, visit);
        }
    }

    /**
     * Visits the cells (x, y) with x in [x0, x1) and y in [y0, y1) that are above the diagonal (y &gt; x) when
     * {@code upper}, below it (y &lt; x) otherwise.
     */
    private void visitCells(int x0, int x1, int y0, int y1, boolean upper, TileVisit visit) {
        for (int a = x0 >>> shift; a <= (x1 - 1) >>> shift; a++) {
            int rowFrom = Math.max(x0, a << shift);
            int rowTo = Math.min(x1, (a + 1) << shift);
            for (int b = y0 >>> shift; b <= (y1 - 1) >>> shift; b++) {
                if (upper ? b < a : b > a) {
                    continue;
                }
                int colFrom = Math.max(y0, b << shift);
                int colTo = Math.min(y1, (b + 1) << shift);
                int tile = tileOf(a, b);
                Rows rows = run -> {
                    for (int x = rowFrom; x < rowTo; x++) {
                        int from = upper ? Math.max(colFrom, x + 1) : colFrom;
                        int to = upper ? colTo : Math.min(colTo, x);
                        if (from < to) {
                            run.accept(cell(x, from), to - from);
                        }
                    }
                };
                long covered = coveredCells(rowFrom, rowTo, colFrom, colTo, upper);
                if (covered > 0) {
                    visit.at(tile, covered == capacity(a, b), rows);
                }
            }
        }
    }

    /** Cells (x, y), x in [x0, x1), y in [y0, y1), above the diagonal when upper, below it otherwise. */
    private static long coveredCells(int x0, int x1, int y0, int y1, boolean upper) {
        return upper ? new Region(x0, x1, y0, y1, 0).pairs() : new Region(y0, y1, x0, x1, 0).pairs();
    }

    /** Calls {@code run} for each row run of a tile's valid cells (its pairs). */
    private void forEachRow(int t, RowRun run) {
        int a = tileRow(t);
        int b = tileColumn(t, a);
        int rowFrom = a << shift;
        int rowTo = Math.min(n, rowFrom + side);
        int colFrom = b << shift;
        int colTo = Math.min(n, colFrom + side);
        for (int x = rowFrom; x < rowTo; x++) {
            if (a != b) {
                run.accept(cell(x, colFrom), colTo - colFrom);
                continue;
            }
            if (x + 1 < colTo) { // above the diagonal
                run.accept(cell(x, x + 1), colTo - x - 1);
            }
            if (ordered && x > colFrom) { // below it
                run.accept(cell(x, colFrom), x - colFrom);
            }
        }
    }

    /** The pairs tile t can hold. */
    private long capacity(int t) {
        int a = tileRow(t);
        return capacity(a, tileColumn(t, a));
    }

    private long capacity(int a, int b) {
        long rows = Math.min(n, (long) (a + 1) << shift) - ((long) a << shift);
        long cols = Math.min(n, (long) (b + 1) << shift) - ((long) b << shift);
        if (a != b) {
            return rows * cols;
        }
        return ordered ? rows * (rows - 1) : rows * (rows - 1) / 2;
    }

    private int tileOf(int a, int b) {
        if (ordered) {
            return a * grid + b;
        }
        return (int) (rowStart(a) + (b - a));
    }

    /** The tile row of tile index t (its column is {@link #tileColumn}). */
    private int tileRow(int t) {
        if (ordered) {
            return t / grid;
        }
        // rows of the tile triangle hold grid, grid - 1, ... tiles: solve start(a) <= t for the largest a
        double g = 2.0 * grid + 1;
        int a = (int) Math.max(0, Math.floor((g - Math.sqrt(g * g - 8.0 * t)) / 2));
        while (a > 0 && rowStart(a) > t) {
            a--;
        }
        while (a + 1 < grid && rowStart(a + 1) <= t) {
            a++;
        }
        return a;
    }

    private int tileColumn(int t, int a) {
        return ordered ? t % grid : (int) (a + (t - rowStart(a)));
    }

    /** The index of the first tile of tile row a of an unordered set. */
    private long rowStart(int a) {
        return (long) a * grid - (long) a * (a - 1) / 2;
    }

    private int cell(int row, int col) {
        return (row & (side - 1)) << shift | (col & (side - 1));
    }

    private static void setBits(long[] bits, int from, int to, boolean value) {
        for (int b = from; b < to; ) {
            int word = b >>> 6;
            int end = Math.min(to, (word + 1) << 6);
            long mask = wordMask(b, end);
            bits[word] = value ? bits[word] | mask : bits[word] & ~mask;
            b = end;
        }
    }

    /** The bits [b, end) of b's word, end at most the word's end. */
    private static long wordMask(int b, int end) {
        return (end - b == 64 ? -1L : (1L << (end - b)) - 1) << (b & 63);
    }

    private static int countBits(long[] bits, int from, int to) {
        int cells = 0;
        for (int b = from; b < to; ) {
            int word = b >>> 6;
            int end = Math.min(to, (word + 1) << 6);
            long mask = wordMask(b, end);
            cells += Long.bitCount(bits[word] & mask);
            b = end;
        }
        return cells;
    }
}
