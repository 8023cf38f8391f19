package io.rocket.core.summary;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class PerformanceModelTest {

    @Test
    void tMin_isPreprocessEachItemOncePlusEveryCompare() {
        assertThat(PerformanceModel.pairs(300)).isEqualTo(44_850);
        assertThat(PerformanceModel.tMinSeconds(300, 0.001, 0.0002)).isCloseTo(0.3 + 8.97, within(1e-9));
    }

    @Test
    void efficiency_dividesBoundByDevicesAndWall() {
        assertThat(PerformanceModel.systemEfficiency(10, 2, 5)).isEqualTo(1.0);
        assertThat(PerformanceModel.systemEfficiency(10, 0, 5)).isZero();
        assertThat(PerformanceModel.reuseFactor(750, 100)).isEqualTo(7.5);
    }
}
