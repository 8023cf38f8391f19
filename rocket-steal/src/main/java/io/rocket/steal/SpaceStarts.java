package io.rocket.steal;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the workers start on a {@link PairSpace}. A space whose roots are {@link PairSpace#exact() exact} and of
 * which nothing was resumed starts on its roots in the usual order, so a rectangle of queries against references
 * runs in cache-aware bands as the triangle does. Any other space (listed pairs, overlapping unions, a resumed run)
 * starts on the regions of the pairs not yet done, where the pairs outside the space count as done: the quadtree
 * squares that hold only missing pairs, and the tile leaves that hold some.
 */
public final class SpaceStarts {

    private SpaceStarts() {
    }

    /**
     * The start of a run on one node (or on rank 0 alone, without partitioned start).
     *
     * @param space    the run's pairs
     * @param done     the pairs done before it starts ({@link PairSpace#done}), or null when none
     * @param resumed  whether any of {@code done} was resumed from a journal
     * @param bands    the node's band order, or null for the quadtree order
     * @param tileSize the side of the quadtree's leaves
     * @return the parts to start on, in run order
     */
    public static List<StartShares.Part> node(PairSpace space, PairSet done, boolean resumed, BandOrder bands,
                                              int tileSize) {
        if (onRoots(space, done, resumed)) {
            List<StartShares.Part> parts = new ArrayList<>();
            for (Region root : space.roots()) {
                if (bands == null) {
                    parts.add(new StartShares.Part(root, 0));
                } else {
                    bands.bands(root).forEach(band -> parts.add(new StartShares.Part(band, 0)));
                }
            }
            return parts;
        }
        return StartShares.missing(done, tileSize);
    }

    /**
     * Node {@code rank}'s parts in cluster bands ({@link ClusterBands}): cut from the space's one root when it has
     * one and nothing was resumed, else from the whole triangle less {@code done}.
     *
     * @param space      the run's pairs
     * @param done       the pairs done before it starts, or null when none
     * @param resumed    whether any of {@code done} was resumed from a journal
     * @param nodes      the nodes of the run
     * @param rank       this node
     * @param bandHeight rows per cluster band
     * @param tileSize   the side of the quadtree's leaves
     * @return this node's parts, in run order
     */
    public static List<StartShares.Part> clusterBands(PairSpace space, PairSet done, boolean resumed, int nodes,
                                                      int rank, int bandHeight, int tileSize) {
        Region root = bandRoot(space, done, resumed);
        return root == null
                ? ClusterBands.parts(space.items(), nodes, rank, bandHeight, tileSize, done)
                : ClusterBands.parts(root, nodes, rank, bandHeight, tileSize, null);
    }

    /**
     * The items whose rows cluster bands are cut from: the rows of the space's one root (the queries of a
     * rectangle), else every item. {@link ClusterBands#home} and {@link ClusterBands#keptRows} take it as their n.
     *
     * @param space   the run's pairs
     * @param done    the pairs done before it starts, or null when none
     * @param resumed whether any of {@code done} was resumed from a journal
     * @return the number of rows the bands are cut from
     */
    public static int bandRows(PairSpace space, PairSet done, boolean resumed) {
        Region root = bandRoot(space, done, resumed);
        return root == null ? space.items() : root.r1();
    }

    private static Region bandRoot(PairSpace space, PairSet done, boolean resumed) {
        if (!onRoots(space, done, resumed)) {
            return null;
        }
        List<Region> roots = space.roots();
        return roots.size() == 1 && roots.get(0).r0() == 0 ? roots.get(0) : null;
    }

    private static boolean onRoots(PairSpace space, PairSet done, boolean resumed) {
        return done == null || space.exact() && !resumed;
    }
}
