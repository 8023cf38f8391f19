package io.rocket.steal;

import io.rocket.core.summary.PerformanceModel;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.BitSet;
import java.util.function.Consumer;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * A set of pairs i &lt; j of n items, one bit per pair of the strict upper triangle (row-major). It is the one
 * record of which pairs are done: rank 0's finished-pair bitmap, the pairs a journal recovered, the pairs workers
 * skip on resume, the pairs outside a run's {@link PairSpace} (marked done before it starts), and the source of the
 * regions re-run after a node is lost. Thread-safe.
 *
 * <p>An <em>ordered</em> set (for applications whose f is not symmetric) holds both orientations of every pair: a
 * second triangle of bits, after the first, for the pairs (j, i) with j &gt; i. A region then counts as all missing
 * only when both orientations of all its pairs are.
 */
public final class PairSet {
    private final int n;
    private final boolean ordered;
    /** Pairs i &lt; j of the triangle: the bits of one orientation. */
    private final long triangle;
    private final long total;
    private final BitSet bits;
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
        this.n = n;
        this.ordered = ordered;
        this.triangle = PerformanceModel.pairs(n);
        this.total = ordered ? 2 * triangle : triangle;
        if (total > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(n + " items: more pairs than a run tracks (2^31 - 1; see PairLimit)");
        }
        this.bits = new BitSet((int) total);
    }

    /**
     * The bit of pair (i, j), i &ne; j: of the first triangle when i &lt; j; of the second when i &gt; j and the set
     * is ordered, else of (j, i).
     *
     * @param i the pair's first item
     * @param j the pair's second item
     * @return the bit's index
     */
    public int index(int i, int j) {
        if (i > j) {
            int upper = (int) ((long) j * (2L * n - j - 1) / 2 + (i - j - 1));
            return ordered ? (int) (triangle + upper) : upper;
        }
        return (int) ((long) i * (2L * n - i - 1) / 2 + (j - i - 1));
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
        int bit = index(i, j);
        if (bits.get(bit)) {
            return false;
        }
        bits.set(bit);
        count++;
        return true;
    }

    public synchronized boolean contains(int i, int j) {
        return bits.get(index(i, j));
    }

    /** Pairs in the set. */
    public synchronized long size() {
        return count;
    }

    public synchronized boolean isComplete() {
        return count == total;
    }

    /** The set as bytes (little-endian bit order, as {@link BitSet#toByteArray}). */
    public synchronized byte[] toBytes() {
        return bits.toByteArray();
    }

    /** Adds every pair of {@code bytes} (from {@link #toBytes}); bits beyond the run's pairs are an error. */
    public synchronized void addAll(byte[] bytes) {
        BitSet other = BitSet.valueOf(bytes);
        if (other.length() > total) {
            throw new IllegalArgumentException("pair set of " + other.length() + " bits for " + total + " pairs");
        }
        bits.or(other);
        count = bits.cardinality();
    }

    /** A copy of the set, to add to apart from this one. */
    public synchronized PairSet copy() {
        PairSet copy = new PairSet(n, ordered);
        copy.bits.or(bits);
        copy.count = count;
        return copy;
    }

    /** Adds every pair of {@code region} (both orientations, when ordered). */
    public synchronized void addRegion(Region region) {
        setRegion(region, true);
        count = bits.cardinality();
    }

    /** Removes every pair of {@code region} (both orientations, when ordered). */
    public synchronized void removeRegion(Region region) {
        setRegion(region, false);
        count = bits.cardinality();
    }

    /** Adds every pair of {@code other}, a set of as many items and the same orientation. */
    public void addAll(PairSet other) {
        if (other.n != n || other.ordered != ordered) {
            throw new IllegalArgumentException("pair sets of different items or orientation");
        }
        BitSet theirs;
        synchronized (other) {
            theirs = (BitSet) other.bits.clone();
        }
        synchronized (this) {
            bits.or(theirs);
            count = bits.cardinality();
        }
    }

    /** The pairs not in this set, as a new set. */
    public synchronized PairSet complement() {
        PairSet out = new PairSet(n, ordered);
        out.bits.set(0, (int) total);
        out.bits.andNot(bits);
        out.count = total - count;
        return out;
    }

    /** A copy of the set that cannot change, for lookups without a lock on every pair. */
    public synchronized PairMask mask() {
        return new PairMask(this, (BitSet) bits.clone());
    }

    private void setRegion(Region region, boolean value) {
        int r0 = Math.max(0, region.r0());
        int r1 = Math.min(n, region.r1());
        int c1 = Math.min(n, region.c1());
        for (int i = r0; i < r1; i++) {
            int from = Math.max(region.c0(), i + 1);
            if (from < c1) {
                int base = index(i, from);
                bits.set(base, base + (c1 - from), value);
                if (ordered) {
                    bits.set(base + (int) triangle, base + (int) triangle + (c1 - from), value);
                }
            }
        }
    }

    /** The set deflated, for a message: runs of done pairs shrink to little. */
    public byte[] toCompressed() {
        byte[] raw = toBytes();
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try {
            deflater.setInput(raw);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, raw.length / 16));
            byte[] chunk = new byte[64 * 1024];
            while (!deflater.finished()) {
                out.write(chunk, 0, deflater.deflate(chunk));
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    /**
     * Adds every pair of {@code compressed} (from {@link #toCompressed}); input that inflates to more than this run's
     * pairs or is not deflate data is an error.
     */
    public void addCompressed(byte[] compressed) {
        if (compressed.length == 0) {
            return;
        }
        int max = (int) ((total + 7) / 8);
        byte[] raw = new byte[max + 1]; // one spare byte tells a set that is too large from one that just fits
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(compressed);
            int length = 0;
            while (!inflater.finished() && length <= max) {
                int got = inflater.inflate(raw, length, raw.length - length);
                if (got == 0 && !inflater.finished() && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IllegalArgumentException("pair set is cut short");
                }
                length += got;
            }
            if (length > max) {
                throw new IllegalArgumentException("pair set inflates to more than " + max + " bytes");
            }
            addAll(Arrays.copyOf(raw, length));
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("pair set is not deflate data: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }

    /** Pairs of {@code region} not in the set (both orientations, when ordered). */
    public synchronized long missing(Region region) {
        long missing = 0;
        for (int i = region.r0(); i < region.r1(); i++) {
            int from = Math.max(region.c0(), i + 1);
            if (from < region.c1()) {
                int base = index(i, from);
                int to = base + (region.c1() - from);
                missing += (to - base) - bits.get(base, to).cardinality();
                if (ordered) {
                    missing += (to - base) - bits.get(base + (int) triangle, to + (int) triangle).cardinality();
                }
            }
        }
        return missing;
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
}
