package io.rocket.node;

import io.rocket.core.trace.Telemetry;
import io.rocket.core.trace.TraceEvent;
import io.rocket.core.trace.Tracer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How many pairs a task of resident rows takes: a few milliseconds of the pairs' measured cost. */
class TaskSizeTest {
    private static Telemetry measured(long pairs, long compareNanosEach, long postprocessNanosEach) {
        Telemetry telemetry = new Telemetry(Tracer.NOOP);
        telemetry.costs(TraceEvent.COMPARE, pairs, pairs * compareNanosEach);
        telemetry.costs(TraceEvent.POSTPROCESS, pairs, pairs * postprocessNanosEach);
        return telemetry;
    }

    @Test
    void beforeAnyPairIsTimed_onePair() {
        assertThat(ResidentRow.pairsPerTask(new Telemetry(Tracer.NOOP))).isEqualTo(1);
    }

    @Test
    void cheapPairs_aboutTheTargetTimeOfThem() {
        // 24 us + 1 us a pair: 5 ms is 200 pairs.
        assertThat(ResidentRow.pairsPerTask(measured(10_000, 24_000, 1_000))).isEqualTo(200);
    }

    @Test
    void pairsTooCheapToTime_asManyAsATaskHolds() {
        assertThat(ResidentRow.pairsPerTask(measured(10_000, 0, 0))).isEqualTo(ResidentRow.MOST_PAIRS);
    }

    @Test
    void expensivePairs_oneATime() {
        assertThat(ResidentRow.pairsPerTask(measured(20, 125_000_000, 0))).isEqualTo(1);
        assertThat(ResidentRow.pairsPerTask(measured(20, 4_000_000, 0))).isEqualTo(1);
    }
}
