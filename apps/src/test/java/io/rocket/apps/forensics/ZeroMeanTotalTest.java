package io.rocket.apps.forensics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class ZeroMeanTotalTest {

    @Property(tries = 40)
    void apply_anySize_leavesZeroEvenAndOddMeansInEveryRowAndColumn(@ForAll @IntRange(min = 2, max = 17) int h,
            @ForAll @IntRange(min = 2, max = 17) int w, @ForAll @LongRange(min = 0, max = 1000) long seed) {
        float[] x = Reference.gaussian(h * w, seed);
        for (int i = 0; i < x.length; i++) {
            x[i] = 5f + 3f * x[i] + (i % w) * 0.5f; // offset and a ramp, so there is something to remove
        }
        ZeroMeanTotal.apply(x, h, w, new double[2 * w]);
        for (int c = 0; c < w; c++) {
            for (int parity = 0; parity < 2; parity++) {
                double sum = 0;
                int count = 0;
                for (int r = parity; r < h; r += 2) {
                    sum += x[r * w + c];
                    count++;
                }
                assertThat(sum / count).as("column %d parity %d", c, parity).isCloseTo(0.0, within(1e-4));
            }
        }
        for (int r = 0; r < h; r++) {
            for (int parity = 0; parity < 2; parity++) {
                double sum = 0;
                int count = 0;
                for (int c = parity; c < w; c += 2) {
                    sum += x[r * w + c];
                    count++;
                }
                assertThat(sum / count).as("row %d parity %d", r, parity).isCloseTo(0.0, within(1e-4));
            }
        }
    }

    @Property(tries = 20)
    void apply_twice_changesNothingTheSecondTime(@ForAll @IntRange(min = 2, max = 12) int h,
            @ForAll @IntRange(min = 2, max = 12) int w, @ForAll @LongRange(min = 0, max = 1000) long seed) {
        float[] x = Reference.gaussian(h * w, seed);
        ZeroMeanTotal.apply(x, h, w, new double[2 * w]);
        float[] once = x.clone();
        ZeroMeanTotal.apply(x, h, w, new double[2 * w]);
        assertThat(x).containsExactly(once, within(1e-5f));
    }

    @Property(tries = 1)
    void apply_evenOddPattern_removesItCompletely() {
        // a pattern that only depends on row and column parity (like a Bayer grid) is removed exactly
        int h = 6;
        int w = 8;
        float[] x = new float[h * w];
        for (int r = 0; r < h; r++) {
            for (int c = 0; c < w; c++) {
                x[r * w + c] = (r % 2) * 3f + (c % 2) * 7f + ((r + c) % 2 == 0 ? 1f : 0f);
            }
        }
        ZeroMeanTotal.apply(x, h, w, new double[2 * w]);
        for (float v : x) {
            assertThat(v).isCloseTo(0f, within(1e-5f));
        }
    }
}
