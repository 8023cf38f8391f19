package io.rocket.bench;

import io.rocket.steal.PairSet;
import io.rocket.steal.Region;

import java.util.Locale;

/**
 * How much memory the finished-pair record ({@link PairSet}) of a large run takes for each tile side: the leaves of
 * all pairs of N items are marked done one after another in the schedule's curve order (the order a node works a
 * quadtree, and the order in which rank 0's record fills as results arrive), and the most tiles that held a bitmap at
 * once is read after every leaf. Prints, per tile side, the table's bytes, that peak and the peak's bytes: the
 * frontier between done and not yet done that a run carries, beside the 62.5 GB of one bit per pair at 10⁶ items.
 *
 * <p>Usage: {@code java -cp rocket-bench/target/benchmarks.jar io.rocket.bench.PairSetMemoryBench [N] [LEAF]
 * [SIDES...]} (defaults 1000000 items, leaves of 256 items, sides 256 512 1024 2048).
 */
public final class PairSetMemoryBench {
    private PairSetMemoryBench() {
    }

    /**
     * Runs the walk once per tile side and prints one line each.
     *
     * @param args N, the leaf side and the tile sides, all optional
     */
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int leaf = args.length > 1 ? Integer.parseInt(args[1]) : 256;
        int[] sides = args.length > 2 ? java.util.Arrays.stream(args, 2, args.length).mapToInt(Integer::parseInt)
                .toArray() : new int[] {256, 512, 1024, 2048};
        for (int side : sides) {
            PairSet done = new PairSet(n, false, side);
            int[] peak = {0};
            long[] leaves = {0};
            long start = System.nanoTime();
            walk(Region.root(n), leaf, region -> {
                done.addRegion(region);
                if (++leaves[0] % 2048 == 0) { // the count scans the table: sample it (the frontier moves slowly)
                    peak[0] = Math.max(peak[0], done.bitmapTiles());
                }
            });
            double seconds = (System.nanoTime() - start) / 1e9;
            long table = (long) done.tiles() * (8 + 4); // a reference and a count per tile
            System.out.printf(Locale.ROOT, "pair set: %,d items, tiles of %d: table %.1f MB, at most %,d tiles with "
                            + "a bitmap at once (%.1f MB), complete %b, %,d leaves of %d in %.1f s%n",
                    n, side, table / 1e6, peak[0], peak[0] * done.bitmapBytes() / 1e6, done.isComplete(),
                    leaves[0], leaf, seconds);
        }
    }

    private static void walk(Region region, int leaf, java.util.function.Consumer<Region> out) {
        if (!region.hasPairs()) {
            return;
        }
        if (region.isLeaf(leaf)) {
            out.accept(region);
        } else {
            region.split(child -> walk(child, leaf, out));
        }
    }
}
