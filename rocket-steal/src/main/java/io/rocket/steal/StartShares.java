package io.rocket.steal;

import java.util.ArrayList;
import java.util.List;

/**
 * Where each node of a cluster run starts: the pair matrix cut into P contiguous stretches of the Hilbert curve with
 * about equal pair counts. Every node computes the same cut from (n, tile size, P), so no message is needed and all
 * nodes compute from the first moment, instead of waiting for their first steal from rank 0; stealing then only
 * evens out the differences. Contiguous stretches keep each node's items close together, as the quadtree order does
 * within one node.
 */
public final class StartShares {

    /** Regions per node the matrix is cut into before the stretches are drawn: fine enough to balance within ~1/16. */
    private static final int REGIONS_PER_NODE = 8;

    private StartShares() {
    }

    /**
     * The regions node {@code rank} of {@code nodes} starts with, in curve order (empty when its stretch holds no
     * pairs, e.g. with fewer pairs than nodes). The shares of all ranks together are every pair exactly once.
     */
    public static List<Region> of(int n, int tileSize, int nodes, int rank) {
        if (nodes < 1 || rank < 0 || rank >= nodes) {
            throw new IllegalArgumentException("rank " + rank + " is not in 0.." + (nodes - 1));
        }
        List<Region> cut = cut(n, tileSize, REGIONS_PER_NODE * nodes);
        long total = 0;
        for (Region region : cut) {
            total += region.pairs();
        }
        List<Region> mine = new ArrayList<>();
        long before = 0;
        for (Region region : cut) {
            long pairs = region.pairs();
            // A region belongs to the node whose stretch holds its middle pair.
            int owner = (int) Math.min(nodes - 1, (before + pairs / 2) * nodes / total);
            if (owner == rank) {
                mine.add(region);
            }
            before += pairs;
        }
        return mine;
    }

    /** The quadtree levels, split breadth-first in curve order until there are {@code atLeast} regions or leaves only. */
    static List<Region> cut(int n, int tileSize, int atLeast) {
        List<Region> level = new ArrayList<>();
        Region root = Region.root(n);
        if (root.hasPairs()) {
            level.add(root);
        }
        boolean split = true;
        while (level.size() < atLeast && split) {
            List<Region> next = new ArrayList<>(level.size() * 4);
            split = false;
            for (Region region : level) {
                if (region.isLeaf(tileSize)) {
                    next.add(region);
                } else {
                    region.split(next::add);
                    split = true;
                }
            }
            level = next;
        }
        return level;
    }
}
