package io.rocket.steal;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The cache-aware order of a cluster with the distributed cache: the node order of {@link BandOrder} spread over the
 * nodes, so the cluster's L2 caches together hold one band of rows, each row in one node only.
 *
 * <p>A cluster band holds rows [a, e), about P·b of them, cut into P row blocks of about b rows, one per node. Node p
 * runs, in this order:
 * <ol>
 *   <li>its own block on the diagonal (it loads its b rows);</li>
 *   <li>about (P − 1)/2 of the blocks between its rows and another node's, the rest of the band's square going to
 *       those other nodes (block (p, q) goes to p when q − p &lt; P/2, else to q), so the square is shared out
 *       evenly; the other node's rows come from that node's L2 at the first L3 hop;</li>
 *   <li>its rows against every column right of the band, as a {@link Region#BAND} of one stream of columns
 *       ({@link BandOrder#expand}), from the far end back towards the band.</li>
 * </ol>
 * All nodes stream the same columns in the same order at about the same time, so each column is loaded from disk
 * once per band and then passed down the chain of nodes that asked for it (paper §IV-A3). The columns streamed last
 * are the next band's rows: each node asks its L2 to keep its own rows of the next band as they pass
 * ({@link #keptRows}, {@code SlotCache.keep}), so the next band starts with its rows in the cluster's L2 caches, each
 * in its owner's, rather than on disk.
 *
 * <p>Against the windows of {@link StartShares}, where every node needs about 2·side/√P items of each window and the
 * cluster's L2 caches hold each item about √P times, here each row is held once and only the stream is repeated: a
 * band is about P times higher than one node's, so R ≈ 1 + n/(2·P·b) for the whole cluster.
 *
 * <p>Each band is one window ({@link StartShares.Part#window}), so nodes that get ahead help the slowest in the same
 * way, and every node cuts the same bands from (n, P, band height) without a message.
 */
public final class ClusterBands {

    private ClusterBands() {
    }

    /**
     * The rows a node keeps resident in a cluster band: 3/8 of what its L2 keeps beside the stream leaves of its
     * devices. As many again are the next band's rows, kept as they stream past ({@link #keptRows}), and the last
     * quarter holds the columns streamed last, for the nodes a little behind in the stream to fetch. (Measured on
     * `scripts/bench l3`: a quarter less or more for the lag loses first-hop hits or loads more.)
     */
    public static int rowsPerNode(int hostSlots, int devices, int tileSize) {
        return Math.max(1, BandOrder.forNode(hostSlots, devices, tileSize).bandRows() * 3 / 8);
    }

    /**
     * Node {@code rank}'s parts of the bands of height {@code bandHeight} (P·b rows) that cover the pairs of
     * {@code n} items, in run order; with {@code done} (a resumed run), only the pairs missing from it, as quadtree
     * regions in the same order. The parts of all ranks together are every pair exactly once.
     */
    public static List<StartShares.Part> parts(int n, int nodes, int rank, int bandHeight, int tileSize,
                                               PairSet done) {
        return parts(Region.root(n), nodes, rank, bandHeight, tileSize, done);
    }

    /**
     * As {@link #parts(int, int, int, int, int, PairSet)}, for the pairs of {@code root}: the triangle, or a
     * rectangle of queries [0, r1) against references [c0, n) whose rows start at 0. Bands are cut from the root's
     * rows, so the items' homes and kept rows are those of {@link #home} and {@link #keptRows} for
     * {@code root.r1()} items.
     */
    public static List<StartShares.Part> parts(Region root, int nodes, int rank, int bandHeight, int tileSize,
                                               PairSet done) {
        if (nodes < 1 || rank < 0 || rank >= nodes) {
            throw new IllegalArgumentException("rank " + rank + " is not in 0.." + (nodes - 1));
        }
        if (bandHeight < 1) {
            throw new IllegalArgumentException("band height must be >= 1");
        }
        List<StartShares.Part> mine = new ArrayList<>();
        int band = 0;
        if (root.r0() != 0) {
            throw new IllegalArgumentException("cluster bands start at row 0, not " + root.r0());
        }
        int rows = root.r1();
        int end = Math.min(rows, root.c1() - 1);
        for (int a = 0; a < end; a += bandHeight, band++) {
            int e = Math.min(rows, a + bandHeight);
            for (Region region : partsOfBand(root, nodes, rank, a, e, band)) {
                add(mine, region, band, tileSize, done);
            }
        }
        return mine;
    }

    /**
     * The rows node {@code rank} asks its L2 to keep while it runs band {@code band}: its rows of this band, which
     * every stream leaf uses, and its rows of the next, which stream past it as columns first and so are on hand when
     * that band begins instead of being loaded again.
     */
    public static int[] keptRows(int n, int nodes, int rank, int bandHeight, int band) {
        return IntStream.concat(ownRows(n, nodes, rank, bandHeight, band), ownRows(n, nodes, rank, bandHeight, band + 1))
                .toArray();
    }

    /**
     * The node whose rows item {@code i} is in, in the band that holds it as a row. It is the item's L3 contact
     * ({@code DistributedCache.homes}): its rows are loaded first by itself, for its diagonal block, with no message,
     * and the other nodes' requests for them go straight to the node that has them.
     */
    public static int home(int i, int n, int nodes, int bandHeight) {
        long a = (long) (i / bandHeight) * bandHeight;
        long m = Math.min(n, a + bandHeight) - a;
        return (int) (((i - a + 1) * nodes - 1) / m);
    }

    /** Node {@code rank}'s rows of band {@code band} (none past the last band). */
    private static IntStream ownRows(int n, int nodes, int rank, int bandHeight, int band) {
        long a = (long) band * bandHeight;
        if (a >= n) {
            return IntStream.empty();
        }
        int e = (int) Math.min(n, a + bandHeight);
        return IntStream.range(blockStart((int) a, e, nodes, rank), blockStart((int) a, e, nodes, rank + 1));
    }

    /** Rank's regions of the band of rows [a, e) (the band's index is {@code band}), in run order. */
    private static List<Region> partsOfBand(Region root, int nodes, int rank, int a, int e, int band) {
        List<Region> out = new ArrayList<>();
        int n = root.c1();
        int from = root.c0(); // columns left of the root's are not its pairs (queries only)
        int r0 = blockStart(a, e, nodes, rank);
        int r1 = blockStart(a, e, nodes, rank + 1);
        if (r1 == r0) {
            return out;
        }
        out.add(new Region(r0, r1, Math.max(r0, from), r1, 0));
        for (int q = 0; q < nodes; q++) {
            int p = Math.min(rank, q);
            int s = Math.max(rank, q);
            if (q != rank && owner(p, s, nodes, band) == rank) {
                out.add(new Region(blockStart(a, e, nodes, p), blockStart(a, e, nodes, p + 1),
                        Math.max(from, blockStart(a, e, nodes, s)), blockStart(a, e, nodes, s + 1), 0));
            }
        }
        if (e < n) {
            out.add(new Region(r0, r1, Math.max(e, from), n, Region.BAND));
        }
        out.removeIf(region -> !region.hasPairs());
        return out;
    }

    /**
     * Which of nodes p &lt; q computes the block between their rows: the lower when q − p &lt; P/2, the higher when
     * more, and for q − p = P/2 (P even) the lower in even bands and the higher in odd ones, so each node gets about
     * (P − 1)/2 blocks and no node always the extra one.
     */
    static int owner(int p, int q, int nodes, int band) {
        int d = q - p;
        if (2 * d < nodes) {
            return p;
        }
        if (2 * d > nodes) {
            return q;
        }
        return (band & 1) == 0 ? p : q;
    }

    /** The first row of node {@code k}'s block of the band [a, e) (k = P gives e). */
    private static int blockStart(int a, int e, int nodes, int k) {
        return a + (int) ((long) (e - a) * k / nodes);
    }

    private static void add(List<StartShares.Part> mine, Region region, int band, int tileSize, PairSet done) {
        if (done == null) {
            mine.add(new StartShares.Part(region, band));
        } else {
            done.missingRegions(region, tileSize, missing -> mine.add(new StartShares.Part(missing, band)));
        }
    }
}
