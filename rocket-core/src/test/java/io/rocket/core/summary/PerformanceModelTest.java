package io.rocket.core.summary;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class PerformanceModelTest {

    @Test
    void tMin_isPreprocessEachItemOncePlusEveryCompare() {
        assertThat(PerformanceModel.pairs(300)).isEqualTo(44_850);
        // 300 items needed, preprocessed 300 times (1 ms each), 44,850 pairs compared once (0.2 ms each).
        PerformanceModel.Figures f = PerformanceModel.figures(
                new PerformanceModel.Work(300, 300, 600, 44_850, 300, 0.3, 44_850, 8.97, 10));
        assertThat(f.tMinSeconds()).isCloseTo(0.3 + 8.97, within(1e-9));
        assertThat(f.systemEfficiency()).isCloseTo(0.927, within(1e-9));
        assertThat(f.reuse()).isEqualTo(1.0);
        assertThat(f.reuseLowerBound()).isEqualTo(1.0);
    }

    @Test
    void itemsThatArrivePreprocessed_costNoPreprocessInTheBound() {
        // A cluster node that needed 200 items, preprocessed 50 and fetched the rest from other nodes.
        PerformanceModel.Figures f = PerformanceModel.figures(
                new PerformanceModel.Work(200, 210, 400, 5000, 50, 0.5, 5000, 5, 8));
        assertThat(f.tMinSeconds()).isCloseTo(0.5 + 5, within(1e-9));
        assertThat(f.reuse()).isEqualTo(1.05);
    }

    @Test
    void noWork_leavesTheFiguresUndefined() {
        PerformanceModel.Figures f = PerformanceModel.figures(new PerformanceModel.Work(0, 0, 4, 0, 0, 0, 0, 0, 1));
        assertThat(f.reuse()).isNull();
        assertThat(f.reuseLowerBound()).isNull();
        assertThat(f.tMinSeconds()).isNull();
        assertThat(f.systemEfficiency()).isNull();
    }

    @Test
    void bound_isOneWhenEverythingFits_andGrowsAsTheCacheShrinks() {
        assertThat(PerformanceModel.reuseLowerBound(100, PerformanceModel.pairs(100), 100)).isEqualTo(1.0);
        assertThat(PerformanceModel.reuseLowerBound(1000, PerformanceModel.pairs(1000), 50))
                .isCloseTo((499_500.0 - 1225) / 99 / 1000, within(1e-12));
    }

    @Test
    void theBound_dependsOnTheSpace_throughTheMostPairsAmongFewItems() {
        // The triangle's density gives the triangle's formula.
        assertThat(PerformanceModel.reuseLowerBound(1000, 499_500, 50, PairDensity.TRIANGLE))
                .isEqualTo(PerformanceModel.reuseLowerBound(1000, 499_500, 50));
        // 1000 queries x 1000 other references with C = 300: 2C items hold at most C^2 pairs of the rectangle, C
        // items C^2/4; so F > C (P - C^2/4) / C^2 and R >= (10^6 / 300 - 75) / 2000.
        PairDensity rectangle = k -> (k / 2) * ((k + 1) / 2);
        assertThat(PerformanceModel.reuseLowerBound(2000, 1_000_000, 300, rectangle))
                .isCloseTo((1_000_000.0 / 300 - 75) / 2000, within(1e-12));
        // Both orientations of every pair: twice the pairs per phase, the same fills.
        PairDensity ordered = k -> 2 * PairDensity.TRIANGLE.mostPairs(k);
        assertThat(PerformanceModel.reuseLowerBound(1000, 999_000, 50, ordered))
                .isCloseTo(PerformanceModel.reuseLowerBound(1000, 499_500, 50), within(1e-12));
        // A space with no pairs among any items bounds nothing.
        assertThat(PerformanceModel.reuseLowerBound(10, 0, 5, k -> 0)).isEqualTo(1.0);
    }

    @Test
    void aSummary_setsItsBoundAgain_forTheRunsSpace() {
        RunSummary s = new RunSummary();
        s.model(new PerformanceModel.Work(2000, 7000, 300, 1_000_000, 2000, 1, 1_000_000, 10, 20));
        double triangle = s.reuseLowerBound;
        s.pairSpace(k -> (k / 2) * ((k + 1) / 2));
        assertThat(s.reuseLowerBound).isCloseTo((1_000_000.0 / 300 - 75) / 2000, within(1e-12))
                .isGreaterThan(triangle);
        assertThat(s.reuse).isEqualTo(3.5);
    }

    /**
     * The efficiency is at most 1 whenever the kernel time fits in the device-seconds, whatever the split of the
     * kernels: T_min counts at most the preprocess and compare kernels that ran, at their mean.
     */
    @Property(tries = 300)
    void efficiencyIsAtMostOne_whenKernelTimeFitsInTheDeviceSeconds(
            @ForAll @IntRange(min = 1, max = 5000) int items, @ForAll @IntRange(min = 0, max = 5000) int preprocessed,
            @ForAll @IntRange(min = 0, max = 100_000) int pairs, @ForAll @IntRange(min = 0, max = 1000) int duplicates,
            @ForAll @DoubleRange(min = 0, max = 100) double preSeconds,
            @ForAll @DoubleRange(min = 0, max = 100) double cmpSeconds,
            @ForAll @DoubleRange(min = 1, max = 3) double slack) {
        double kernel = preSeconds + cmpSeconds;
        PerformanceModel.Figures f = PerformanceModel.figures(new PerformanceModel.Work(items, items, 4, pairs,
                preprocessed, preSeconds, pairs + duplicates, cmpSeconds, kernel * slack));
        if (f.systemEfficiency() != null) {
            assertThat(f.systemEfficiency()).isBetween(0.0, 1.0 + 1e-12);
        }
        assertThat(f.reuse()).isGreaterThanOrEqualTo(1.0);
        assertThat(f.reuseLowerBound()).isGreaterThanOrEqualTo(1.0);
    }

    @Test
    void theBoundOfALevelOfSeveralCaches_subtractsWhatEachHoldsAtTheStart() {
        // Two L1s of 100 items, 1,124,250 pairs among 1,500 items: 100 (P - 2 x 4,950) / 19,900 fills.
        double twoL1s = PerformanceModel.reuseLowerBound(1500, 1_124_250, 100, 2, PairDensity.TRIANGLE);
        assertThat(twoL1s).isCloseTo(100 * (1_124_250 - 2 * 4950.0) / 19_900 / 1500, within(1e-12));
        assertThat(PerformanceModel.reuseLowerBound(1500, 1_124_250, 100, 1, PairDensity.TRIANGLE))
                .isEqualTo(PerformanceModel.reuseLowerBound(1500, 1_124_250, 100));
        assertThat(PerformanceModel.reuseLowerBound(10, 45, 100, 2, PairDensity.TRIANGLE)).as("never below 1")
                .isEqualTo(1.0);
    }
}
