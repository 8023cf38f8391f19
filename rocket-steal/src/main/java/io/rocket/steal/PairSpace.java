package io.rocket.steal;

import io.rocket.core.summary.PairDensity;
import io.rocket.core.summary.PerformanceModel;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Which pairs of a run's n items are computed: every pair i &lt; j of one list (the triangle), queries against
 * references (a rectangle of the same matrix), a list of pairs, any union of these, and each of them in both
 * orientations for an application whose f is not symmetric ({@link #ordered}).
 *
 * <p>A space is made of <em>regions</em> (rectangles of the i &lt; j matrix, as the scheduler cuts them) and
 * <em>listed pairs</em>. The scheduler starts on {@link #roots()}, which cover the space; when they are
 * {@link #exact()} (no listed pairs, regions disjoint) the node's cache-aware bands are cut from them directly. For
 * every space, the pairs {@link #outside()} it are marked done before the run starts, exactly as the pairs of a
 * resumed journal are: so a node skips them, rank 0 counts the run complete when the space's pairs are in, and a
 * lost node's missing work is found and re-run as before, whatever the space (see decision 0027).
 *
 * <p>Immutable; every node of a cluster run builds the same space from the same inputs, and {@link #digest()} is
 * part of the cluster's fingerprint so that nodes with different spaces refuse to run together.
 */
public final class PairSpace {
    private final int n;
    private final boolean ordered;
    private final List<Region> regions;
    /** Listed pairs i &lt; j, packed as {@code (long) i << 32 | j}, sorted and without duplicates. */
    private final long[] listed;
    private final String description;
    private volatile long pairs = -1;

    private PairSpace(int n, boolean ordered, List<Region> regions, long[] listed, String description) {
        if (n < 0) {
            throw new IllegalArgumentException("items must be >= 0, got " + n);
        }
        this.n = n;
        this.ordered = ordered;
        this.regions = List.copyOf(regions);
        this.listed = listed;
        this.description = description;
    }

    /**
     * Every pair i &lt; j of {@code n} items: the run of one list.
     *
     * @param n the items
     * @return the triangle
     */
    public static PairSpace triangle(int n) {
        return new PairSpace(n, false, n < 2 ? List.of() : List.of(Region.root(n)), new long[0],
                "every pair of " + n + " items");
    }

    /**
     * Queries against references in one list of {@code n} items ordered [queries only, shared, references only]:
     * the pairs i &lt; j with i &lt; {@code queryEnd} (a query) and j &ge; {@code referenceStart} (a reference). A
     * pair of two shared items is in it once.
     *
     * @param n              the items of both lists together
     * @param queryEnd       the queries are the items [0, queryEnd)
     * @param referenceStart the references are the items [referenceStart, n), referenceStart &le; queryEnd
     * @return the rectangle
     * @throws IllegalArgumentException when the bounds are not 0 &le; referenceStart &le; queryEnd &le; n
     */
    public static PairSpace rectangle(int n, int queryEnd, int referenceStart) {
        if (referenceStart < 0 || referenceStart > queryEnd || queryEnd > n) {
            throw new IllegalArgumentException("queries [0, " + queryEnd + ") and references [" + referenceStart
                    + ", " + n + ") are not a query-reference layout of " + n + " items");
        }
        Region region = new Region(0, queryEnd, referenceStart, n, 0);
        return new PairSpace(n, false, region.hasPairs() ? List.of(region) : List.of(), new long[0],
                queryEnd + " queries against " + (n - referenceStart) + " references ("
                        + (queryEnd - referenceStart) + " in both)");
    }

    /**
     * The listed pairs of {@code n} items; (i, j) and (j, i) are the same pair, duplicates count once.
     *
     * @param n     the items
     * @param pairs the pairs, each as two indices {@code pairs[k][0] != pairs[k][1]} in [0, n)
     * @return the list's space
     * @throws IllegalArgumentException for an index out of range or a pair of an item with itself
     */
    public static PairSpace listed(int n, List<int[]> pairs) {
        long[] packed = new long[pairs.size()];
        for (int k = 0; k < packed.length; k++) {
            int a = pairs.get(k)[0];
            int b = pairs.get(k)[1];
            if (a < 0 || b < 0 || a >= n || b >= n || a == b) {
                throw new IllegalArgumentException("pair (" + a + ", " + b + ") is not a pair of " + n + " items");
            }
            packed[k] = (long) Math.min(a, b) << 32 | Math.max(a, b);
        }
        long[] unique = Arrays.stream(packed).sorted().distinct().toArray();
        return new PairSpace(n, false, List.of(), unique, unique.length + " listed pairs of " + n + " items");
    }

    /**
     * Every pair of any of {@code parts}, each pair once.
     *
     * @param parts spaces of the same items and orientation, at least one
     * @return the union
     * @throws IllegalArgumentException when the parts are of different items or orientations, or there are none
     */
    public static PairSpace union(List<PairSpace> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("a union of no pair spaces");
        }
        PairSpace first = parts.get(0);
        List<Region> regions = new ArrayList<>();
        List<long[]> lists = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (PairSpace part : parts) {
            if (part.n != first.n || part.ordered != first.ordered) {
                throw new IllegalArgumentException("a union of pair spaces of different items or orientations");
            }
            regions.addAll(part.regions);
            lists.add(part.listed);
            names.add(part.description);
        }
        long[] listed = lists.stream().flatMapToLong(Arrays::stream).sorted().distinct().toArray();
        return new PairSpace(first.n, first.ordered, regions, listed,
                parts.size() == 1 ? first.description : String.join(" + ", names));
    }

    /**
     * This space with each pair in both orientations, (i, j) and (j, i), when {@code value}; as it is otherwise.
     *
     * @param value whether the application's f is not symmetric
     * @return the space in that orientation
     */
    public PairSpace ordered(boolean value) {
        return value == ordered ? this : new PairSpace(n, value, regions, listed, description);
    }

    /** The items: pairs are of indices in [0, items). */
    public int items() {
        return n;
    }

    /** Whether (i, j) and (j, i) are computed apart: f(item i, item j) and f(item j, item i). */
    public boolean ordered() {
        return ordered;
    }

    /** Whether a region of the space is the whole triangle, so that no pair is outside it (cheap: no set is built). */
    boolean wholeTriangle() {
        return regions.contains(Region.root(n));
    }

    /** Whether this is every pair of the items (in one orientation or both): no pair is outside it. */
    public boolean isEverything() {
        return wholeTriangle() || pairs() == (ordered ? 2 : 1) * PerformanceModel.pairs(n);
    }

    /** Whether {@link #roots()} hold exactly the space's pairs, each once: no listed pairs, no overlap. */
    public boolean exact() {
        if (listed.length > 0) {
            return false;
        }
        long sum = 0;
        for (Region region : regions) {
            sum += region.pairs();
        }
        return sum * (ordered ? 2 : 1) == pairs();
    }

    /**
     * Regions that cover every pair of the space, in run order: its regions when {@link #exact()}, else the whole
     * triangle (a run then starts on the regions of the pairs not {@link #outside()} it).
     */
    public List<Region> roots() {
        return exact() ? regions : n < 2 ? List.of() : List.of(Region.root(n));
    }

    /** The pairs to compute: each pair i &lt; j of the space once, or twice when {@link #ordered()}. */
    public long pairs() {
        long p = pairs;
        if (p < 0) {
            p = listed.length == 0 && regions.size() <= 1
                    ? (regions.isEmpty() ? 0 : regions.get(0).pairs()) * (ordered ? 2 : 1)
                    : members().size();
            pairs = p;
        }
        return p;
    }

    /**
     * Whether pair (i, j) is in the space.
     *
     * @param i the pair's first item
     * @param j the second, not i; in an unordered space (i, j) and (j, i) are the same pair
     * @return whether the pair is computed
     */
    public boolean contains(int i, int j) {
        int a = Math.min(i, j);
        int b = Math.max(i, j);
        if (a == b || a < 0 || b >= n) {
            return false;
        }
        for (Region r : regions) {
            if (a >= r.r0() && a < r.r1() && b >= r.c0() && b < r.c1()) {
                return true;
            }
        }
        return Arrays.binarySearch(listed, (long) a << 32 | b) >= 0;
    }

    /** The pairs of the space as a set (both orientations when ordered). */
    public PairSet members() {
        PairSet set = new PairSet(n, ordered);
        for (Region region : regions) {
            set.addRegion(region);
        }
        for (long pair : listed) {
            int i = (int) (pair >>> 32);
            int j = (int) pair;
            set.add(i, j);
            if (ordered) {
                set.add(j, i);
            }
        }
        return set;
    }

    /** The pairs of the items outside the space, or null when there are none (every pair is computed). */
    public PairSet outside() {
        return isEverything() ? null : members().complement();
    }

    /**
     * What a run of this space has done before it starts: the pairs outside it and the pairs a journal resumed.
     *
     * @param resumed pairs done by an earlier run, or null
     * @return a new set of both, or null when both are empty
     */
    public PairSet done(PairSet resumed) {
        PairSet out = outside();
        boolean noneResumed = resumed == null || resumed.size() == 0;
        if (out == null) {
            return noneResumed ? null : resumed.copy();
        }
        if (!noneResumed) {
            out.addAll(resumed);
        }
        return out;
    }

    /**
     * How densely the space packs pairs among few items, for the summary's R lower bound ({@link SpaceDensity}).
     *
     * @return the most pairs of the space any k items hold
     */
    public PairDensity density() {
        return new SpaceDensity(n, ordered, regions, listed);
    }

    /** What the space is, for a log line or a message. */
    public String describe() {
        return description + (ordered ? ", both orientations" : "");
    }

    /**
     * A digest of exactly which pairs the space holds: equal on two nodes only when they would compute the same
     * pairs.
     */
    public String digest() {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            ByteBuffer b = ByteBuffer.allocate(16 * regions.size() + 8);
            b.putInt(n).putInt(ordered ? 1 : 0);
            for (Region r : regions) {
                b.putInt(r.r0()).putInt(r.r1()).putInt(r.c0()).putInt(r.c1());
            }
            sha.update(b.array());
            ByteBuffer l = ByteBuffer.allocate(8 * listed.length);
            l.asLongBuffer().put(listed);
            sha.update(l.array());
            return HexFormat.of().formatHex(sha.digest(), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing", e);
        }
    }

    @Override
    public String toString() {
        return "PairSpace[" + describe() + "]";
    }
}
