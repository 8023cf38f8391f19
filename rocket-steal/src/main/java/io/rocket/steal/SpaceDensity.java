package io.rocket.steal;

import io.rocket.core.summary.PairDensity;

import java.util.List;

/**
 * The {@link PairDensity} of a {@link PairSpace}: the most of its pairs any k items hold, which the summary's R lower
 * bound divides by (see {@link io.rocket.core.summary.PerformanceModel}). Worked out per part and summed, never above
 * the k(k − 1)/2 pairs k items have at all, and doubled when the space is ordered (both orientations of each pair):
 *
 * <ul>
 *   <li>a region, rows A × columns B of the i &lt; j matrix (the triangle is the region of all items; queries
 *   against references are rows of the queries × columns of the references): with S = A ∩ B shared, k items hold at
 *   most a·b + s·(a + b) + s(s − 1)/2 pairs when a are of A only, b of B only and s shared. For a fixed s the rest is
 *   best split evenly (a·b is largest when a and b are equal), so the most is the largest of these over s. With no
 *   shared items it is ⌊k/2⌋·⌈k/2⌉, about k²/4: half the triangle's k²/2;</li>
 *   <li>listed pairs: k items hold at most k·D/2 of them, D the most pairs one item is in, and never more than
 *   the list.</li>
 * </ul>
 */
final class SpaceDensity implements PairDensity {
    private final int n;
    private final boolean ordered;
    private final List<Region> regions;
    private final long listed;
    private final long listDegree;

    /**
     * @param n       the space's items
     * @param ordered whether each pair counts in both orientations
     * @param regions its regions
     * @param listed  its listed pairs i &lt; j, packed as {@code (long) i << 32 | j}
     */
    SpaceDensity(int n, boolean ordered, List<Region> regions, long[] listed) {
        this.n = n;
        this.ordered = ordered;
        this.regions = regions;
        this.listed = listed.length;
        this.listDegree = mostPairsOfOneItem(n, listed);
    }

    private static long mostPairsOfOneItem(int n, long[] listed) {
        if (listed.length == 0) {
            return 0;
        }
        int[] degree = new int[n];
        int most = 0;
        for (long pair : listed) {
            most = Math.max(most, Math.max(++degree[(int) (pair >>> 32)], ++degree[(int) pair]));
        }
        return most;
    }

    @Override
    public long mostPairs(long k) {
        long items = Math.min(k, n);
        long sum = Math.min(listed, items * listDegree / 2);
        for (Region region : regions) {
            sum += mostPairs(region, items);
        }
        long most = Math.min(sum, TRIANGLE.mostPairs(items));
        return ordered ? 2 * most : most;
    }

    /** The most pairs i &lt; j of {@code region} that k items hold (see the class comment). */
    static long mostPairs(Region region, long k) {
        long shared = Math.max(0, Math.min(region.r1(), region.c1()) - Math.max(region.r0(), region.c0()));
        long rowsOnly = (region.r1() - region.r0()) - shared;
        long columnsOnly = (region.c1() - region.c0()) - shared;
        long best = 0;
        for (long s = 0; s <= Math.min(k, shared); s++) {
            long rest = Math.min(k - s, rowsOnly + columnsOnly);
            // a + b = rest with a ≤ rowsOnly, b ≤ columnsOnly, a as near rest / 2 as they allow.
            long a = Math.max(rest - columnsOnly, Math.min(rowsOnly, rest / 2));
            long b = rest - a;
            best = Math.max(best, a * b + s * rest + s * (s - 1) / 2);
        }
        return best;
    }
}
