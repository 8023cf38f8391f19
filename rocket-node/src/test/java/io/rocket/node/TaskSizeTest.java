package io.rocket.node;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How many pairs a tile takes: tens of milliseconds of the pairs' recent cost, within its buffers and the L1. */
class TaskSizeTest {

    @Test
    void beforeAnyTileIsTimed_onePair() {
        assertThat(PairTile.pairsPerTask(-1, PairTile.MOST_PAIRS)).isEqualTo(1);
    }

    @Test
    void cheapPairs_aboutTheTargetTimeOfThem() {
        // 250 us a pair: 50 ms is 200 pairs.
        assertThat(PairTile.pairsPerTask(250_000, PairTile.MOST_PAIRS)).isEqualTo(200);
    }

    @Test
    void pairsTooCheapToTime_asManyAsATileHolds() {
        assertThat(PairTile.pairsPerTask(0, PairTile.MOST_PAIRS)).isEqualTo(PairTile.MOST_PAIRS);
    }

    @Test
    void expensivePairs_oneATime() {
        assertThat(PairTile.pairsPerTask(125_000_000, PairTile.MOST_PAIRS)).isEqualTo(1);
        assertThat(PairTile.pairsPerTask(40_000_000, PairTile.MOST_PAIRS)).isEqualTo(1);
    }

    @Test
    void theRunsCap_boundsATile() {
        assertThat(PairTile.pairsPerTask(0, 7)).isEqualTo(7);
        assertThat(PairTile.pairCapacity(8)).isEqualTo(PairTile.MOST_PAIRS);
        assertThat(PairTile.pairCapacity(1L << 20)).isEqualTo(16); // 16 MiB of results
        assertThat(PairTile.pairCapacity(1L << 30)).isEqualTo(2);
    }

    @Test
    void span_zeroForOnePairATile_elseTheL1AndTheTilesPairs() {
        assertThat(PairTile.span(100, 1024, 1)).isZero();
        assertThat(PairTile.span(100, 1024, 0)).isEqualTo(99);
        assertThat(PairTile.span(100, 16, 0)).isEqualTo(8);
        assertThat(PairTile.span(1, 1024, 0)).isZero();
    }

    @Test
    void rowPieces_makeTilesAsSquareAsTheCapAllows() {
        assertThat(TilePacker.span(99, 1024, false)).isEqualTo(32); // a 16 x 16 leaf's rows whole
        assertThat(TilePacker.span(99, 100, false)).isEqualTo(10);  // 10 rows x 10 columns
        assertThat(TilePacker.span(99, 100, true)).isEqualTo(8);    // both orientations: sqrt(50), rounded up
        assertThat(TilePacker.span(99, 1, false)).isEqualTo(1);
        assertThat(TilePacker.span(4, 1024, false)).isEqualTo(4);   // the L1 bounds it
    }
}
