package io.rocket.steal;

import io.rocket.core.RocketException;
import io.rocket.core.summary.PerformanceModel;
import io.rocket.steal.journal.JournalOptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Runs that would track more pairs than a {@link PairSet} holds are refused at the start, in one line. */
class PairLimitTest {
    private static final String STORE = JournalOptions.store(Path.of("s"), "").option();
    private static final String JOURNAL = new JournalOptions(Path.of("j"), false, "").option();

    @Test
    void theLimit_isEveryPairOf65536Items_orBothOrientationsOf46341() {
        assertThat(PairLimit.maxItems(false)).isEqualTo(65_536);
        assertThat(PerformanceModel.pairs(65_536)).isLessThanOrEqualTo(PairLimit.MAX_PAIRS);
        assertThat(PerformanceModel.pairs(65_537)).isGreaterThan(PairLimit.MAX_PAIRS);
        assertThat(PairLimit.maxItems(true)).isEqualTo(46_341);
        assertThat(2 * PerformanceModel.pairs(46_342)).isGreaterThan(PairLimit.MAX_PAIRS);
        assertThatThrownBy(() -> new PairSet(65_537)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyPairOfOneList_onOneNode_tracksNothing_andHasNoLimit() {
        assertThatCode(() -> PairLimit.check(PairSpace.triangle(100_000), false, null)).doesNotThrowAnyException();
        assertThatCode(() -> PairLimit.check(PairSpace.triangle(100_000).ordered(true), false, null))
                .doesNotThrowAnyException();
    }

    @Test
    void aRunThatTracksItsPairs_isRefusedAboveTheLimit_inOneLine() {
        assertThatThrownBy(() -> PairLimit.check(PairSpace.triangle(70_000), false, STORE))
                .isInstanceOf(RocketException.class)
                .hasMessage("70,000 items make 2,449,965,000 pairs, more than a run can track (2^31 - 1), and --store "
                        + "tracks them: give at most 65,536 items a run (split the queries of --against over several "
                        + "runs), or run every pair of one list on one node without --store or --journal");
        assertThatThrownBy(() -> PairLimit.check(PairSpace.triangle(70_000), true, null))
                .hasMessageContaining("a cluster run tracks them").hasMessageNotContaining("\n");
        assertThatThrownBy(() -> PairLimit.check(PairSpace.rectangle(70_000, 100, 100), false, null))
                .hasMessageContaining("a run of 100 queries against 69900 references (0 in both) tracks the pairs "
                        + "outside it");
        List<int[]> one = List.of(new int[] {0, 69_999});
        assertThatThrownBy(() -> PairLimit.check(PairSpace.listed(70_000, one), false, null))
                .hasMessageContaining("1 listed pairs of 70000 items");
    }

    @Test
    void bothOrientations_countTwice_exceptInAStore() {
        PairSpace ordered = PairSpace.triangle(50_000).ordered(true);
        assertThatThrownBy(() -> PairLimit.check(ordered, false, JOURNAL))
                .hasMessageStartingWith("50,000 items in both orientations make 2,499,950,000 pairs")
                .hasMessageContaining("--journal tracks them: give at most 46,341 items in both orientations a run");
        // The store keeps each pair in the orientation it was computed: one bit per unordered pair.
        assertThatCode(() -> PairLimit.check(ordered, false, STORE)).doesNotThrowAnyException();
        assertThatCode(() -> PairLimit.check(PairSpace.triangle(60_000), true, JOURNAL)).doesNotThrowAnyException();
    }
}
