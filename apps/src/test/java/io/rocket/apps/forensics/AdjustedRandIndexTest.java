package io.rocket.apps.forensics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class AdjustedRandIndexTest {

    @Test
    void of_samePartitionRenamed_isOne() {
        assertThat(AdjustedRandIndex.of(new int[] {0, 0, 1, 1, 2}, new int[] {7, 7, 3, 3, 9})).isEqualTo(1.0);
    }

    @Test
    void of_knownExample_matchesHandComputation() {
        // a = {0,0,0,1,1,1}, b = {0,0,1,1,2,2}: contingency [[2,1,0],[0,1,2]]; index = 1+1 = 2;
        // sumA = 3+3 = 6, sumB = 1+1+1 = 3, expected = 6·3/15 = 1.2, max = 4.5; ARI = 0.8/3.3
        double ari = AdjustedRandIndex.of(new int[] {0, 0, 0, 1, 1, 1}, new int[] {0, 0, 1, 1, 2, 2});
        assertThat(ari).isCloseTo(0.8 / 3.3, within(1e-12));
    }

    @Test
    void of_oneClusterVersusSingletons_isZero() {
        assertThat(AdjustedRandIndex.of(new int[] {0, 0, 0, 0}, new int[] {0, 1, 2, 3})).isEqualTo(0.0);
    }

    @Test
    void of_degenerateIdentical_isOne() {
        assertThat(AdjustedRandIndex.of(new int[] {0, 1, 2}, new int[] {5, 6, 7})).isEqualTo(1.0);
        assertThat(AdjustedRandIndex.of(new int[] {4, 4}, new int[] {1, 1})).isEqualTo(1.0);
    }
}
