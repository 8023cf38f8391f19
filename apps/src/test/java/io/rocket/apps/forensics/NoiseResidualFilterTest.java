package io.rocket.apps.forensics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class NoiseResidualFilterTest {

    private static float[] run(float[] image, int h, int w) {
        float[] out = new float[h * w];
        NoiseResidualFilter.apply(image, h, w, new float[h * w], new float[h * w], out);
        return out;
    }

    @Test
    void apply_constantImage_givesZero() {
        int h = 6;
        int w = 9;
        float[] image = new float[h * w];
        java.util.Arrays.fill(image, 137f);
        assertThat(run(image, h, w)).containsOnly(0f);
    }

    @Test
    void apply_linearImage_givesZeroEverywhereIncludingBorders() {
        int h = 7;
        int w = 11;
        float[] image = new float[h * w];
        for (int r = 0; r < h; r++) {
            for (int c = 0; c < w; c++) {
                image[r * w + c] = 3.5f * c - 2f * r + 10f;
            }
        }
        float[] out = run(image, h, w);
        for (float v : out) {
            assertThat(v).isCloseTo(0f, within(1e-5f));
        }
    }

    @Test
    void apply_impulse_matchesHandComputedDivergence() {
        // impulse of 2 at (2,2) in 5x5: the four neighbours get gradients ±1, scaled by 1/(1+1) to ±0.5;
        // divergence: centre −0.5 − 0.5 = −1, the one-sided borders (2,0),(2,4),(0,2),(4,2) get +0.5, rest 0
        int n = 5;
        float[] image = new float[n * n];
        image[2 * n + 2] = 2f;
        float[] out = run(image, n, n);
        float[] expected = new float[n * n];
        expected[2 * n + 2] = -1f;
        expected[2 * n] = 0.5f;
        expected[2 * n + 4] = 0.5f;
        expected[2] = 0.5f;
        expected[4 * n + 2] = 0.5f;
        assertThat(out).containsExactly(expected, within(1e-6f));
    }

    @Test
    void apply_nonSquareStep_isOrientedByRowsAndColumns() {
        // a vertical step edge (columns ≥ 2 are 10) in a 3x6 image: no y gradient, so every row is the same
        int h = 3;
        int w = 6;
        float[] image = new float[h * w];
        for (int r = 0; r < h; r++) {
            for (int c = 2; c < w; c++) {
                image[r * w + c] = 10f;
            }
        }
        float[] out = run(image, h, w);
        // dx = [0, 5, 5, 0, 0, 0] scaled by 1/(1+5): [0, 5/6, 5/6, 0, 0, 0]; divergence (central, one-sided ends)
        float s = 5f / 6f;
        float[] row = {s, s / 2, -s / 2, -s / 2, 0, 0};
        for (int r = 0; r < h; r++) {
            for (int c = 0; c < w; c++) {
                assertThat(out[r * w + c]).as("(%d,%d)", r, c).isCloseTo(row[c], within(1e-6f));
            }
        }
    }

    @Test
    void gradientY_borders_useOneSidedDifferences() {
        int h = 4;
        int w = 2;
        float[] a = {0, 0, 1, 1, 4, 4, 9, 9}; // r² down each column
        float[] out = new float[h * w];
        NoiseResidualFilter.gradientY(a, h, w, out);
        assertThat(out).containsExactly(1, 1, 2, 2, 4, 4, 5, 5);
    }
}
