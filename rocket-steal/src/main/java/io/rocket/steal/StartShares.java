package io.rocket.steal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Where each node of a cluster run starts. Every node computes the same cut from (n, tile size, P, window), so no
 * message is needed and all nodes compute from the first moment, instead of waiting for their first steal from
 * rank 0; stealing then only evens out the differences.
 *
 * <p>The pair matrix is first cut along the Hilbert curve into <em>windows</em>: quadtree squares whose side is at
 * most {@code window} items. Each window is cut again and shared out to all P nodes in contiguous stretches of about
 * equal pair counts. A node runs its parts window by window, so the whole cluster walks the curve together:
 *
 * <ul>
 *   <li>With the whole matrix as one window (no distributed cache), each node gets one contiguous stretch of the
 *       curve: the best reuse of its own caches, and nodes share few items.</li>
 *   <li>With windows sized to the L2 caches ({@link #windowFor}), the items of one window are wanted by several
 *       nodes at about the same time, so all but the first of them find the item in the L2 of the node that asked
 *       for it last — the L3 first hop (paper §IV-A3). Disk loads fall from about 2n²/C·0.75 for n items and C L2
 *       slots to about n²/(2·window); each window brings one new band of items into the cluster.</li>
 * </ul>
 *
 * <p>Which rank gets which stretch of a window is decided by the pairs each has so far (the largest stretch to the
 * least loaded), so no rank always gets the short end of the windows on the diagonal, and each node's parts move
 * around the windows.
 */
public final class StartShares {

    /** Regions per node each window is cut into before the stretches are drawn: fine enough to balance within ~1/16. */
    private static final int REGIONS_PER_NODE = 8;

    private StartShares() {
    }

    /**
     * The window side that fits L2 caches of {@code hostSlots} items: a quarter larger than one cache, so that a
     * node's part of a window (about 2·side/√P items) fits with room to keep the previous window's items for the
     * nodes that come to ask for them.
     */
    public static int windowFor(int hostSlots) {
        return Math.max(1, hostSlots + hostSlots / 4);
    }

    /** A piece of a node's start share and the window it belongs to (windows are numbered along the curve). */
    public record Part(Region region, int window) {
    }

    /** The regions node {@code rank} starts with when the whole matrix is one window. */
    public static List<Region> of(int n, int tileSize, int nodes, int rank) {
        return parts(n, tileSize, nodes, rank, Integer.MAX_VALUE).stream().map(Part::region).toList();
    }

    /**
     * The parts node {@code rank} of {@code nodes} starts with, in curve order (none when it gets no pairs, e.g.
     * with fewer pairs than nodes). The shares of all ranks together are every pair exactly once.
     *
     * @param window the largest side of a window, in items ({@link Integer#MAX_VALUE}: one window)
     */
    public static List<Part> parts(int n, int tileSize, int nodes, int rank, int window) {
        return parts(n, tileSize, nodes, rank, window, null);
    }

    /**
     * As above, for a resumed run: only the pairs missing from {@code done} (null: none done) are shared out, so the
     * shares stay even however much of the matrix was done before.
     */
    public static List<Part> parts(int n, int tileSize, int nodes, int rank, int window, PairSet done) {
        if (nodes < 1 || rank < 0 || rank >= nodes) {
            throw new IllegalArgumentException("rank " + rank + " is not in 0.." + (nodes - 1));
        }
        if (window < 1) {
            throw new IllegalArgumentException("window must be >= 1");
        }
        List<Part> mine = new ArrayList<>();
        long[] load = new long[nodes];
        List<Region> windows = windows(Region.root(n), tileSize, window);
        for (int w = 0; w < windows.size(); w++) {
            List<Region> cut = cut(windows.get(w), tileSize, REGIONS_PER_NODE * nodes);
            if (done != null) {
                cut = missing(cut, tileSize, done);
                if (cut.isEmpty()) {
                    continue;
                }
            }
            List<List<Region>> stretches = stretches(cut, nodes);
            int stretch = stretchOf(rank, stretches, load);
            for (Region region : stretches.get(stretch)) {
                mine.add(new Part(region, w));
            }
        }
        return mine;
    }

    /**
     * Which of a window's stretches {@code rank} gets, and adds every rank's stretch to {@code load}: the largest
     * stretch goes to the rank with the fewest pairs so far, the next largest to the next, and so on (ties by
     * index). Every node computes the same, and the shares stay within about one stretch of each other even when
     * windows have fewer regions than there are nodes.
     */
    private static int stretchOf(int rank, List<List<Region>> stretches, long[] load) {
        int nodes = load.length;
        long[] pairs = new long[nodes];
        for (int k = 0; k < nodes; k++) {
            for (Region region : stretches.get(k)) {
                pairs[k] += region.pairs();
            }
        }
        Integer[] ranks = new Integer[nodes];
        Integer[] largest = new Integer[nodes];
        for (int k = 0; k < nodes; k++) {
            ranks[k] = k;
            largest[k] = k;
        }
        Arrays.sort(ranks, Comparator.<Integer>comparingLong(k -> load[k]).thenComparing(k -> k));
        Arrays.sort(largest, Comparator.<Integer>comparingLong(k -> -pairs[k]).thenComparing(k -> k));
        int mine = -1;
        for (int k = 0; k < nodes; k++) {
            load[ranks[k]] += pairs[largest[k]];
            if (ranks[k] == rank) {
                mine = largest[k];
            }
        }
        return mine;
    }

    /**
     * The pairs missing from {@code done} as one node's start share, in curve order: what a resumed run that starts
     * in one place (a single node, or rank 0 without partitioned start) has left to do.
     */
    public static List<Part> missing(PairSet done, int tileSize) {
        List<Part> parts = new ArrayList<>();
        done.missingRegions(tileSize, region -> parts.add(new Part(region, 0)));
        return parts;
    }

    /** The regions of {@code cut} that hold the pairs missing from {@code done}, in curve order. */
    private static List<Region> missing(List<Region> cut, int tileSize, PairSet done) {
        List<Region> out = new ArrayList<>(cut.size());
        for (Region region : cut) {
            done.missingRegions(region, tileSize, out::add);
        }
        return out;
    }

    /** {@code cut} in P contiguous stretches of about equal pair counts: a region goes where its middle pair falls. */
    public static List<List<Region>> stretches(List<Region> cut, int nodes) {
        long total = 0;
        for (Region region : cut) {
            total += region.pairs();
        }
        List<List<Region>> out = new ArrayList<>(nodes);
        for (int k = 0; k < nodes; k++) {
            out.add(new ArrayList<>());
        }
        long before = 0;
        for (Region region : cut) {
            long pairs = region.pairs();
            out.get((int) Math.min(nodes - 1, (before + pairs / 2) * nodes / total)).add(region);
            before += pairs;
        }
        return out;
    }

    /** The squares of side at most {@code window} (or tile leaves) that cover {@code region}, in curve order. */
    static List<Region> windows(Region region, int tileSize, int window) {
        List<Region> out = new ArrayList<>();
        addWindows(region, tileSize, window, out);
        return out;
    }

    private static void addWindows(Region region, int tileSize, int window, List<Region> out) {
        if (!region.hasPairs()) {
            return;
        }
        if (region.isLeaf(tileSize) || (region.r1() - region.r0() <= window && region.c1() - region.c0() <= window)) {
            out.add(region);
        } else {
            region.split(child -> addWindows(child, tileSize, window, out));
        }
    }

    /**
     * {@code region}'s quadtree levels, split breadth-first in curve order until there are {@code atLeast} regions or
     * leaves only.
     */
    public static List<Region> cut(Region region, int tileSize, int atLeast) {
        List<Region> level = new ArrayList<>();
        if (region.hasPairs()) {
            level.add(region);
        }
        boolean split = true;
        while (level.size() < atLeast && split) {
            List<Region> next = new ArrayList<>(level.size() * 4);
            split = false;
            for (Region r : level) {
                if (r.isLeaf(tileSize)) {
                    next.add(r);
                } else {
                    r.split(next::add);
                    split = true;
                }
            }
            level = next;
        }
        return level;
    }
}
