package io.rocket.cli;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The progress arithmetic and wording, on a clock the test moves by hand. */
class ProgressMeterTest {

    /** A clock that moves only when told. */
    private static final class FakeClock {
        long nanos = 1_000_000_000L;

        void advanceSeconds(double seconds) {
            nanos += (long) (seconds * 1e9);
        }
    }

    private static final long THIRTY_SECONDS = TimeUnit.SECONDS.toNanos(30);

    private static void done(ProgressMeter meter, int pairs) {
        for (int k = 0; k < pairs; k++) {
            meter.pairDone();
        }
    }

    @Test
    void singleNode_lineWithCountPercentRateAndEta() {
        FakeClock clock = new FakeClock();
        ProgressMeter meter = new ProgressMeter(79_800, () -> clock.nanos, THIRTY_SECONDS);
        clock.advanceSeconds(10);
        done(meter, 12_345);
        meter.sample();
        // The first rate is the rate over the first sample's period: 12,345 pairs in 10 s.
        assertThat(meter.rate()).isCloseTo(1234.5, within(1e-9));
        assertThat(meter.etaSeconds()).isCloseTo((79_800 - 12_345) / 1234.5, within(1e-9));
        assertThat(meter.line()).isEqualTo("rocket: 12,345/79,800 pairs (15.5%), 1,235 pairs/s, ETA 0:00:55");
    }

    @Test
    void rate_isMovingAverage_weighingANewSampleByItsShareOfTheSmoothingTime() {
        FakeClock clock = new FakeClock();
        ProgressMeter meter = new ProgressMeter(1_000_000, () -> clock.nanos, THIRTY_SECONDS);
        clock.advanceSeconds(30);
        done(meter, 30_000); // 1,000/s
        meter.sample();
        assertThat(meter.rate()).isCloseTo(1000, within(1e-9));
        clock.advanceSeconds(30);
        done(meter, 60_000); // 2,000/s over this interval
        meter.sample();
        double alpha = 1 - Math.exp(-1);
        assertThat(meter.rate()).isCloseTo(1000 + alpha * 1000, within(1e-6));
        // A sample a third of the time later weighs less.
        clock.advanceSeconds(10);
        meter.sample(); // nothing done: 0/s
        double before = 1000 + alpha * 1000;
        assertThat(meter.rate()).isCloseTo(before * Math.exp(-1.0 / 3), within(1e-6));
    }

    @Test
    void rates_startWithTheFirstPairs_notWithTheDisplay() {
        FakeClock clock = new FakeClock();
        ProgressMeter meter = new ProgressMeter(10_000, () -> clock.nanos, THIRTY_SECONDS);
        clock.advanceSeconds(30); // joining, loading: nothing done yet
        meter.sample();
        assertThat(meter.rate()).isZero();
        assertThat(meter.etaSeconds()).isNegative();
        assertThat(meter.line()).isEqualTo("rocket: 0/10,000 pairs (0.0%), 0 pairs/s, ETA ?");
        clock.advanceSeconds(30);
        done(meter, 3_000);
        meter.sample();
        assertThat(meter.rate()).isCloseTo(100, within(1e-9));
        assertThat(meter.etaSeconds()).isCloseTo(70, within(1e-9));
        clock.advanceSeconds(10);
        done(meter, 7_000);
        // The last line: rates averaged since they started (10,000 pairs in 40 s), time since the display started.
        assertThat(meter.finalLine()).isEqualTo("rocket: 10,000/10,000 pairs (100.0%), 250 pairs/s, done in 0:01:10");
    }

    /** A run that returned its summary ends on the summary's figures, so the two lines agree. */
    @Test
    void finishedRun_lastLineTakesTheSummarysTimeAndRate() {
        FakeClock clock = new FakeClock();
        ProgressMeter meter = new ProgressMeter(64, () -> clock.nanos, THIRTY_SECONDS);
        clock.advanceSeconds(4.6); // the cluster forming
        meter.nodes(2);
        clock.advanceSeconds(0.4);
        done(meter, 64);
        meter.computed(0, 30);
        meter.computed(1, 34);
        // The summary: 64 pairs in 0.8 s since the cluster formed.
        assertThat(meter.finalLine(0.8, true)).isEqualTo("rocket: 64/64 pairs (100.0%), 80 pairs/s, done in 0:00:01 "
                + "since the cluster formed; nodes: r0 38/s r1 43/s");
        assertThat(meter.finalLine(2.0, false)).isEqualTo("rocket: 64/64 pairs (100.0%), 32 pairs/s, done in 0:00:02"
                + "; nodes: r0 15/s r1 17/s");
    }

    @Test
    void resumedPairs_countAsDone_butNotInTheRate() {
        FakeClock clock = new FakeClock();
        ProgressMeter meter = new ProgressMeter(10_000, () -> clock.nanos, THIRTY_SECONDS);
        for (int k = 0; k < 4_000; k++) {
            meter.pairResumed();
        }
        clock.advanceSeconds(30);
        done(meter, 1_500);
        meter.sample();
        assertThat(meter.done()).isEqualTo(5_500);
        assertThat(meter.rate()).isCloseTo(50, within(1e-9));
        assertThat(meter.etaSeconds()).isCloseTo(4_500 / 50.0, within(1e-9));
        assertThat(meter.line())
                .isEqualTo("rocket: 5,500/10,000 pairs (55.0%, 4,000 resumed), 50 pairs/s, ETA 0:01:30");
        assertThat(meter.finalLine()).endsWith("50 pairs/s, stopped after 0:00:30");
    }

    @Test
    void cluster_ratePerRank_lostRankShownAsLostAtZero() {
        FakeClock clock = new FakeClock();
        ProgressMeter meter = new ProgressMeter(79_800, () -> clock.nanos, THIRTY_SECONDS);
        meter.nodes(4);
        clock.advanceSeconds(10);
        done(meter, 12_110);
        meter.computed(0, 3_100);
        meter.computed(1, 3_050);
        meter.computed(2, 3_000);
        meter.computed(3, 2_980);
        meter.lost(2);
        meter.computed(7, 100); // not a rank of this run: ignored
        meter.sample();
        assertThat(meter.nodeRate(0)).isCloseTo(310, within(1e-9));
        assertThat(meter.nodeRate(2)).isZero();
        assertThat(meter.line()).isEqualTo("rocket: 12,110/79,800 pairs (15.2%), 1,211 pairs/s, ETA 0:00:56; "
                + "nodes: r0 310/s r1 305/s r2 0/s (lost) r3 298/s");
        assertThat(meter.barMessage())
                .isEqualTo("1,211 pairs/s, ETA 0:00:56; nodes: r0 310/s r1 305/s r2 0/s (lost) r3 298/s");
        // At the end, a lost rank shows what it computed while it was in.
        assertThat(meter.finalLine()).endsWith("stopped after 0:00:10; nodes: r0 310/s r1 305/s r2 300/s (lost) r3 298/s");
    }

    @Test
    void counts_fromNodesBeforeAnyPairReachesTheSink_startTheRates() {
        FakeClock clock = new FakeClock();
        ProgressMeter meter = new ProgressMeter(1_000, () -> clock.nanos, THIRTY_SECONDS);
        meter.nodes(2);
        clock.advanceSeconds(2);
        meter.computed(1, 20);
        meter.sample();
        assertThat(meter.nodeRate(1)).isCloseTo(10, within(1e-9));
        assertThat(meter.line()).endsWith("; nodes: r0 0/s r1 10/s");
    }

    @Test
    void numbersAndDurations() {
        assertThat(ProgressMeter.count(0)).isEqualTo("0");
        assertThat(ProgressMeter.count(1_234_567)).isEqualTo("1,234,567");
        assertThat(ProgressMeter.rate(0)).isEqualTo("0");
        assertThat(ProgressMeter.rate(Double.NaN)).isEqualTo("0");
        assertThat(ProgressMeter.rate(0.004)).isEqualTo("0");
        assertThat(ProgressMeter.rate(0.25)).isEqualTo("0.25");
        assertThat(ProgressMeter.rate(3.44)).isEqualTo("3.4");
        assertThat(ProgressMeter.rate(9.96)).isEqualTo("10");
        assertThat(ProgressMeter.rate(12_345.6)).isEqualTo("12,346");
        assertThat(ProgressMeter.duration(0)).isEqualTo("0:00:00");
        assertThat(ProgressMeter.duration(0.2)).isEqualTo("0:00:01");
        assertThat(ProgressMeter.duration(54)).isEqualTo("0:00:54");
        assertThat(ProgressMeter.duration(3_600 * 27 + 61)).isEqualTo("27:01:01");
    }
}
