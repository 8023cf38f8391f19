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
}
