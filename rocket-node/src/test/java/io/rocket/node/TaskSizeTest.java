package io.rocket.node;

import io.rocket.core.trace.Telemetry;
import io.rocket.core.trace.TraceEvent;
import io.rocket.core.trace.Tracer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How many pairs a tile takes: a few milliseconds of the pairs' measured cost. */
class TaskSizeTest {
    private static Telemetry measured(long pairs, long compareNanosEach, long postprocessNanosEach) {
        Telemetry telemetry = new Telemetry(Tracer.NOOP);
        telemetry.costs(TraceEvent.COMPARE, pairs, pairs * compareNanosEach);
        telemetry.costs(TraceEvent.POSTPROCESS, pairs, pairs * postprocessNanosEach);
        return telemetry;
    }

    @Test
    void beforeAnyPairIsTimed_onePair() {
        assertThat(PairTile.pairsPerTask(new Telemetry(Tracer.NOOP), PairTile.MOST_PAIRS)).isEqualTo(1);
    }

    @Test
    void cheapPairs_aboutTheTargetTimeOfThem() {
        // 24 us + 1 us a pair: 5 ms is 200 pairs.
        assertThat(PairTile.pairsPerTask(measured(10_000, 24_000, 1_000), PairTile.MOST_PAIRS)).isEqualTo(200);
    }

    @Test
    void pairsTooCheapToTime_asManyAsATaskHolds() {
        assertThat(PairTile.pairsPerTask(measured(10_000, 0, 0), PairTile.MOST_PAIRS)).isEqualTo(PairTile.MOST_PAIRS);
    }

    @Test
    void expensivePairs_oneATime() {
        assertThat(PairTile.pairsPerTask(measured(20, 125_000_000, 0), PairTile.MOST_PAIRS)).isEqualTo(1);
        assertThat(PairTile.pairsPerTask(measured(20, 4_000_000, 0), PairTile.MOST_PAIRS)).isEqualTo(1);
    }
}
