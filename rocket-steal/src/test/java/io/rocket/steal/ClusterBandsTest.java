package io.rocket.steal;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class ClusterBandsTest {

    @Property(tries = 300)
    void partsOfAllRanks_coverEveryPairExactlyOnce(@ForAll @IntRange(min = 0, max = 300) int n,
                                                   @ForAll @IntRange(min = 1, max = 20) int nodes,
                                                   @ForAll @IntRange(min = 1, max = 300) int height) {
        PairCoverage coverage = new PairCoverage(n);
        for (int rank = 0; rank < nodes; rank++) {
            ClusterBands.parts(n, nodes, rank, height, 8, null).forEach(part -> coverage.add(part.region()));
        }
        coverage.assertComplete();
    }

    /**
     * A resumed run: the parts of all ranks cover every pair not done, once, in the same bands (a tile leaf with
     * some pairs done is run whole, as for any resumed run).
     */
    @Property(tries = 200)
    void resumedParts_coverExactlyThePairsNotDone(@ForAll @IntRange(min = 2, max = 200) int n,
                                                  @ForAll @IntRange(min = 1, max = 12) int nodes,
                                                  @ForAll @IntRange(min = 1, max = 200) int height,
                                                  @ForAll long seed) {
        PairSet done = new PairSet(n);
        Random random = new Random(seed);
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (random.nextInt(3) == 0) {
                    done.add(i, j);
                }
            }
        }
        PairCoverage coverage = new PairCoverage(n);
        for (int rank = 0; rank < nodes; rank++) {
            for (StartShares.Part part : ClusterBands.parts(n, nodes, rank, height, 8, done)) {
                assertThat(part.window()).isEqualTo(part.region().r0() / height);
                coverage.add(part.region());
            }
        }
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                assertThat(coverage.covers(i, j) || done.contains(i, j)).as("(%d, %d)", i, j).isTrue();
            }
        }
    }

    /** Each node works on its own rows, the square of a band is shared out evenly, and the stream comes last. */
    @Test
    void eachNode_ownsOneRowBlockPerBand_sharesTheSquareEvenly_andStreamsLast() {
        int n = 400;
        int nodes = 8;
        int height = 96;
        long[] squarePairs = new long[nodes];
        for (int rank = 0; rank < nodes; rank++) {
            List<StartShares.Part> parts = ClusterBands.parts(n, nodes, rank, height, 16, null);
            List<Region> band0 = parts.stream().filter(p -> p.window() == 0).map(StartShares.Part::region).toList();
            Region own = band0.get(0);
            assertThat(own).isEqualTo(new Region(rank * 12, rank * 12 + 12, rank * 12, rank * 12 + 12, 0));
            Region stream = band0.get(band0.size() - 1);
            assertThat(stream).isEqualTo(new Region(rank * 12, rank * 12 + 12, height, n, Region.BAND));
            for (Region region : band0.subList(0, band0.size() - 1)) {
                assertThat(region.r0() == own.r0() || region.c0() == own.r0()).as("%s uses rank %d's rows", region,
                        rank).isTrue();
                squarePairs[rank] += region.pairs();
            }
        }
        long fewest = Arrays.stream(squarePairs).min().orElseThrow();
        long most = Arrays.stream(squarePairs).max().orElseThrow();
        assertThat(most - fewest).as("square pairs per node %s", Arrays.toString(squarePairs)).isLessThanOrEqualTo(144);
    }

    @Test
    void keptRows_areTheNodesRowsOfThisBandAndTheNext() {
        assertThat(ClusterBands.keptRows(400, 8, 2, 96, 0))
                .containsExactly(24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35,
                        120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131);
        // The last band (rows 384..399) has 2 rows per node; there is no band after it.
        assertThat(ClusterBands.keptRows(400, 8, 7, 96, 4)).containsExactly(398, 399);
    }

    @Test
    void rowsPerNode_leaveRoomForTheNextBandsRowsAndTheStream() {
        int b = ClusterBands.rowsPerNode(40, 1, 16);
        assertThat(b).isEqualTo(12);
        assertThat(2 * b + 2 * 4).isLessThan(40);
        assertThat(ClusterBands.rowsPerNode(2, 1, 16)).isEqualTo(1);
    }

    /** Every item's home is the node whose rows of its band hold it: the one node that keeps it (keptRows). */
    @Property(tries = 200)
    void home_isTheNodeWhoseRowsHoldTheItem(@ForAll @IntRange(min = 2, max = 300) int n,
                                            @ForAll @IntRange(min = 1, max = 20) int nodes,
                                            @ForAll @IntRange(min = 1, max = 300) int height) {
        for (int i = 0; i < n; i++) {
            int item = i;
            int home = ClusterBands.home(item, n, nodes, height);
            assertThat(home).isBetween(0, nodes - 1);
            int band = item / height;
            assertThat(Arrays.stream(ClusterBands.keptRows(n, nodes, home, height, band)).anyMatch(r -> r == item))
                    .as("item %d, home %d", item, home).isTrue();
            if (band > 0) { // and kept as the next band's row while the band before streams it
                assertThat(Arrays.stream(ClusterBands.keptRows(n, nodes, home, height, band - 1))
                        .anyMatch(r -> r == item)).isTrue();
            }
        }
    }
}
