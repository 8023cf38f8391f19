package io.rocket.steal;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RegionTest {

    /** Splits down to leaves in visiting order (first child first). */
    private static List<Region> leaves(Region root, int tile) {
        List<Region> out = new ArrayList<>();
        collect(root, tile, out);
        return out;
    }

    private static void collect(Region region, int tile, List<Region> out) {
        if (region.isLeaf(tile)) {
            out.add(region);
            return;
        }
        region.split(child -> collect(child, tile, out));
    }

    @Property(tries = 500)
    void pairs_countsThePairsBelowTheDiagonalRowByRow(@ForAll @IntRange(min = 0, max = 60) int r0,
                                                      @ForAll @IntRange(min = 0, max = 60) int rows,
                                                      @ForAll @IntRange(min = 0, max = 60) int c0,
                                                      @ForAll @IntRange(min = 0, max = 60) int cols) {
        Region region = new Region(r0, r0 + rows, c0, c0 + cols, 0);
        long expected = 0;
        for (int i = r0; i < r0 + rows; i++) {
            expected += Math.max(0, c0 + cols - Math.max(c0, i + 1));
        }
        assertThat(region.pairs()).isEqualTo(expected);
    }

    @Property(tries = 200)
    void leaves_coverEveryPairExactlyOnce(@ForAll @IntRange(min = 0, max = 300) int n,
                                          @ForAll @IntRange(min = 1, max = 40) int tile) {
        PairCoverage coverage = new PairCoverage(n);
        Region root = Region.root(n);
        List<Region> leaves = root.hasPairs() ? leaves(root, tile) : List.of();
        leaves.forEach(coverage::add);
        coverage.assertComplete();
        assertThat(leaves.stream().mapToLong(Region::pairs).sum()).isEqualTo(coverage.count());
    }

    @Test
    void split_offDiagonalSquare_followsHilbertCurveThroughAdjacentLeaves() {
        // Every quadrant of a block strictly above the diagonal has pairs, so none is skipped and consecutive
        // leaves of a Hilbert curve must share an edge.
        Region block = new Region(0, 64, 64, 128, 0);
        List<Region> leaves = leaves(block, 1);
        assertThat(leaves).hasSize(64 * 64);
        for (int k = 1; k < leaves.size(); k++) {
            Region a = leaves.get(k - 1);
            Region b = leaves.get(k);
            int distance = Math.abs(a.r0() - b.r0()) + Math.abs(a.c0() - b.c0());
            assertThat(distance).as("leaves %s -> %s", a, b).isEqualTo(1);
        }
    }

    @Test
    void pairs_triangleAndBlock() {
        assertThat(Region.root(10).pairs()).isEqualTo(45);
        assertThat(new Region(0, 4, 4, 8, 0).pairs()).isEqualTo(16);
        assertThat(new Region(4, 8, 0, 4, 0).hasPairs()).isFalse();
        assertThat(Region.root(1).hasPairs()).isFalse();
    }
}
