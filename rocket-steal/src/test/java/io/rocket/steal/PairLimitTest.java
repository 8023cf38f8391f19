package io.rocket.steal;

import io.rocket.core.RocketException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Runs that would track more pairs than a {@link PairSet} holds are refused at the start, in one line. */
class PairLimitTest {
    /** The options as a journal's or store's settings name themselves ({@code JournalOptions.option()}). */
    private static final String STORE = "--store";
    private static final String JOURNAL = "--journal";
    private static final int OVER = 100_000_000;

    @Test
    void theLimit_isTensOfMillionsOfItems_farAboveTheOldBitmapsCapOf65536() {
        assertThat(PairLimit.maxItems(false)).isEqualTo(65_535 * 512);
        assertThat(PairLimit.maxItems(true)).isEqualTo(46_340 * 512);
        assertThatCode(() -> PairLimit.check(PairSpace.triangle(1_000_000), true, STORE)).doesNotThrowAnyException();
        assertThatThrownBy(() -> new PairSet(PairLimit.maxItems(false) + 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyPairOfOneList_onOneNode_tracksNothing_andHasNoLimit() {
        assertThatCode(() -> PairLimit.check(PairSpace.triangle(OVER), false, null)).doesNotThrowAnyException();
        assertThatCode(() -> PairLimit.check(PairSpace.triangle(OVER).ordered(true), false, null))
                .doesNotThrowAnyException();
    }

    @Test
    void aRunThatTracksItsPairs_isRefusedAboveTheLimit_inOneLine() {
        assertThatThrownBy(() -> PairLimit.check(PairSpace.triangle(OVER), false, STORE))
                .isInstanceOf(RocketException.class)
                .hasMessage("100,000,000 items are more than a run can track the pairs of, and --store tracks them: "
                        + "give at most 33,553,920 items a run (split the queries of --against over several runs), "
                        + "or run every pair of one list on one node without --store or --journal");
        assertThatThrownBy(() -> PairLimit.check(PairSpace.triangle(OVER), true, null))
                .hasMessageContaining("a cluster run tracks them").hasMessageNotContaining("\n");
        assertThatThrownBy(() -> PairLimit.check(PairSpace.rectangle(OVER, 100, 100), false, null))
                .hasMessageContaining("tracks the pairs outside it");
        List<int[]> one = List.of(new int[] {0, 69_999});
        assertThatThrownBy(() -> PairLimit.check(PairSpace.listed(OVER, one), false, null))
                .hasMessageContaining("1 listed pairs of 100000000 items");
    }

    @Test
    void bothOrientations_haveTheLowerLimit_exceptInAStore() {
        PairSpace ordered = PairSpace.triangle(30_000_000).ordered(true);
        assertThatThrownBy(() -> PairLimit.check(ordered, false, JOURNAL))
                .hasMessageStartingWith("30,000,000 items in both orientations are more than")
                .hasMessageContaining("--journal tracks them: give at most 23,726,080 items a run");
        // The store keeps each pair in the orientation it was computed: one bit per unordered pair.
        assertThatCode(() -> PairLimit.check(ordered, false, STORE)).doesNotThrowAnyException();
    }
}
