package io.rocket.steal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The cache-aware order of a node: the pair matrix in <em>bands</em> of rows sized to the node's L2, each run with its
 * rows resident while the columns to its right stream past them.
 *
 * <p>A band holds rows [a, a + B) and every column from a on. It runs first the square on the diagonal (rows with
 * rows, quadtree leaves along the Hilbert curve, which loads the band's B items once), then the columns right of it
 * in <em>stream leaves</em> of {@link #streamWidth()} columns × all B rows, from the far end back towards the band.
 * Each streamed item is loaded once per band and meets all B rows while it is in L2, so a band of B rows costs about
 * B + (n − a − B) loads and the whole matrix about n + n²/(2B): R ≈ 1 + n/(2B), against about 2n/C + … for the
 * quadtree, whose leaves only reuse what neighbouring leaves happened to leave in an LRU cache.
 *
 * <p>The L2 must hold the band's rows and the columns of the leaves in flight on every device, so B is the L2's
 * slots less a margin of two stream leaves per device ({@link #forNode}). The node's devices share a band: its leaves
 * go to the front of the node's backlog and the workers take them in turn ({@link Backlog#takeFront}), so all of them
 * stream past the same resident rows. Consecutive stream leaves alternate the direction of their rows, so where a
 * band does not fit a device's L1, the rows a device used last (still in L1) are the ones it uses first next.
 *
 * <p>Cutting each chunk into row blocks that fit L1, with each device keeping to its own block, was tried and
 * dropped: a row a device finds in its L1 is not touched in L2, so L2 evicts it, and the next time any device
 * needs it from L2 it is loaded again (R rose from 3.3 to 4.9–6.8 with two devices).
 *
 * <p>A band is an ordinary {@link Region} marked {@link Region#BAND}: it is stolen whole, sent to other nodes and
 * claimed like any region, and split into plain quadtree regions where a thief needs half of one.
 */
public final class BandOrder {
    /** Stream leaves kept in L2 per device besides the band's rows: the one computing and the next. */
    private static final int LEAVES_IN_FLIGHT = 2;

    private final int tileSize;
    private final int streamWidth;
    private final int bandRows;

    /**
     * @param tileSize    side of the quadtree leaves of the diagonal squares
     * @param streamWidth columns per stream leaf
     * @param bandRows    rows per band (B)
     */
    public BandOrder(int tileSize, int streamWidth, int bandRows) {
        if (tileSize < 1 || streamWidth < 1 || bandRows < 1) {
            throw new IllegalArgumentException("tile size, stream width and band rows must be >= 1");
        }
        this.tileSize = tileSize;
        this.streamWidth = streamWidth;
        this.bandRows = bandRows;
    }

    /**
     * The order for a node whose L2 holds {@code hostSlots} items and which has {@code devices} devices, with the
     * stream leaves' width set by the tile size (an explicit {@code --tile-size}, or a cluster's bands): stream
     * leaves of a quarter tile (fewer columns where the L2 is small, so the margin never takes more than a quarter of
     * it), and bands as high as the L2 leaves room for after the leaves in flight.
     */
    public static BandOrder forNode(int hostSlots, int devices, int tileSize) {
        int d = Math.max(1, devices);
        int width = Math.max(1, Math.min(streamWidth(tileSize), hostSlots / (4 * LEAVES_IN_FLIGHT * d)));
        int rows = Math.max(1, hostSlots - LEAVES_IN_FLIGHT * d * width);
        return new BandOrder(tileSize, width, rows);
    }

    /**
     * The order for a node whose caches set the sizes: L2 holds {@code hostSlots} items, and each of the
     * {@code devices} devices either reads L2 in place ({@code deviceSlots} 0: cpu) or has an L1 of
     * {@code deviceSlots} items of its own.
     * <ul>
     *   <li>Read in place, a stream leaf's columns are all a device needs beyond the band's rows: leaves of
     *   {@value #IN_PLACE_WIDTH} columns keep the margin small and the band as high as L2 allows.</li>
     *   <li>With an L1 that holds the band's rows and a leaf's columns, the rows stay in it: leaves of the usual
     *   width.</li>
     *   <li>With an L1 smaller than that, each stream leaf copies the band's rows in again, once per leaf: leaves
     *   as wide as half the L1 copy them once per that many columns, but take room in L2 from the band's rows
     *   (each load costs more than a copy), so the leaves in flight take at most an eighth of L2; see
     *   {@code docs/design/cache-aware-order.md}.</li>
     * </ul>
     *
     * @param tileSize the side of the diagonal squares' quadtree leaves
     */
    public static BandOrder forNode(int hostSlots, int devices, int tileSize, int deviceSlots) {
        int d = Math.max(1, devices);
        int cap = Math.max(1, hostSlots / (4 * LEAVES_IN_FLIGHT * d));
        int width;
        if (deviceSlots <= 0) {
            width = Math.min(IN_PLACE_WIDTH, cap);
        } else {
            int usual = Math.min(streamWidth(tileSize), cap);
            int rows = Math.max(1, hostSlots - LEAVES_IN_FLIGHT * d * usual);
            // Wider leaves copy the rows in less often but take L2 from the band (more loads): an eighth of L2 at most.
            int wide = Math.max(1, hostSlots / (2 * 4 * LEAVES_IN_FLIGHT * d));
            width = deviceSlots >= rows + usual ? usual : Math.max(usual, Math.min(deviceSlots / 2, wide));
        }
        return new BandOrder(tileSize, width, Math.max(1, hostSlots - LEAVES_IN_FLIGHT * d * width));
    }

    /** Columns per stream leaf where devices read L2 in place. */
    static final int IN_PLACE_WIDTH = 2;

    /**
     * The order a scheduler uses before it is told its caches: it only lays out bands that other nodes sent, so
     * their rows are the sender's business and the stream leaves just take the usual width.
     */
    public static BandOrder forTile(int tileSize) {
        return new BandOrder(tileSize, streamWidth(tileSize), tileSize);
    }

    /** Columns per stream leaf for leaves of {@code tileSize}: a quarter tile. */
    private static int streamWidth(int tileSize) {
        return Math.max(1, tileSize / 4);
    }

    public int streamWidth() {
        return streamWidth;
    }

    public int bandRows() {
        return bandRows;
    }

    /**
     * The bands that cover the pairs of the whole matrix of {@code n} items, in run order. The last band takes every
     * row left once they fit in one band with room to spare, so it is one diagonal square that loads each item once.
     */
    public List<Region> bands(int n) {
        return bands(Region.root(n));
    }

    /**
     * The bands that cover the pairs of {@code root} (a root of a {@link PairSpace}: the triangle, or a rectangle of
     * queries against references), in run order: rows [a, a + B) against every column of the root from a on.
     */
    public List<Region> bands(Region root) {
        List<Region> out = new ArrayList<>();
        int end = Math.min(root.r1(), root.c1() - 1); // rows from here on have no pair in the root
        int a = root.r0();
        while (a < end) {
            int rows = root.r1() - a <= bandRows + streamWidth ? root.r1() - a : bandRows;
            out.add(new Region(a, a + rows, Math.max(root.c0(), a), root.c1(), Region.BAND));
            a += rows;
        }
        return out;
    }

    /**
     * The leaves of {@code band} in run order: quadtree leaves of the part on or left of the diagonal, then stream
     * leaves from the last column back to the band, their rows alternately ascending and descending.
     */
    public void expand(Region band, Consumer<Region> out) {
        int split = Math.max(band.c0(), Math.min(band.c1(), band.r1()));
        Region diagonal = new Region(band.r0(), band.r1(), band.c0(), split, 0);
        if (diagonal.hasPairs()) {
            quadtreeLeaves(diagonal, out);
        }
        int k = 0;
        for (int c1 = band.c1(); c1 > split; c1 -= streamWidth, k++) {
            int c0 = Math.max(split, c1 - streamWidth);
            out.accept(new Region(band.r0(), band.r1(), c0, c1,
                    Region.LEAF | ((k & 1) == 1 ? Region.ROWS_DESCENDING : 0)));
        }
    }

    /** The leaves of {@code band}, in run order, as a list. */
    public List<Region> leaves(Region band) {
        List<Region> out = new ArrayList<>();
        expand(band, out::add);
        return out;
    }

    /** The leaf a worker runs first when it takes {@code region} (a band or a quadtree region). */
    public Region firstLeaf(Region region) {
        if (!region.isBand()) {
            return region.firstLeaf(tileSize);
        }
        int split = Math.max(region.c0(), Math.min(region.c1(), region.r1()));
        Region diagonal = new Region(region.r0(), region.r1(), region.c0(), split, 0);
        if (diagonal.hasPairs()) {
            return diagonal.firstLeaf(tileSize);
        }
        return new Region(region.r0(), region.r1(), Math.max(split, region.c1() - streamWidth), region.c1(),
                Region.LEAF);
    }

    private void quadtreeLeaves(Region region, Consumer<Region> out) {
        if (region.isLeaf(tileSize)) {
            out.accept(region);
        } else {
            region.split(child -> quadtreeLeaves(child, out));
        }
    }
}
