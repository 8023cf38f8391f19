package io.rocket.apps.forensics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.ByteBuffer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class NccComparatorTest {

    @Property(tries = 30)
    void ncc_ofAffineCopy_isPlusOrMinusOne(@ForAll @DoubleRange(min = 0.1, max = 50) double a,
            @ForAll @DoubleRange(min = -100, max = 100) double b, @ForAll @LongRange(min = 0, max = 500) long seed) {
        float[] x = Reference.gaussian(1000, seed);
        float[] up = new float[x.length];
        float[] down = new float[x.length];
        for (int i = 0; i < x.length; i++) {
            up[i] = (float) (a * x[i] + b);
            down[i] = (float) (-a * x[i] + b);
        }
        assertThat(NccComparator.ncc(x, up)).isCloseTo(1.0, within(1e-5));
        assertThat(NccComparator.ncc(x, down)).isCloseTo(-1.0, within(1e-5));
    }

    @Test
    void ncc_withLargeOffsets_keepsTheMeansOut() {
        // x + 1000 and y − 500 must score exactly like x and y: a formula that drops the means would not
        float[] x = Reference.gaussian(4096, 1);
        float[] y = Reference.gaussian(4096, 2);
        float[] xs = new float[x.length];
        float[] ys = new float[y.length];
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < x.length; i++) {
            y[i] = 0.3f * x[i] + y[i];
            xs[i] = x[i] + 1000f;
            ys[i] = y[i] - 500f;
        }
        double mx = 0;
        double my = 0;
        for (int i = 0; i < x.length; i++) {
            mx += x[i] / (double) x.length;
            my += y[i] / (double) x.length;
        }
        for (int i = 0; i < x.length; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
            syy += (y[i] - my) * (y[i] - my);
        }
        double expected = sxy / Math.sqrt(sxx * syy);
        assertThat(NccComparator.ncc(x, y)).isCloseTo(expected, within(1e-9));
        assertThat(NccComparator.ncc(xs, ys)).isCloseTo(expected, within(1e-4));
    }

    @Test
    void ncc_ofItemsInBuffers_equalsArrayVersion() {
        int h = 20;
        int w = 30;
        float[] x = Reference.gaussian(h * w, 3);
        float[] y = Reference.gaussian(h * w, 4);
        ByteBuffer bx = Reference.item(PrnuLayout.KIND_PATTERN, h, w, x);
        ByteBuffer by = Reference.item(PrnuLayout.KIND_PATTERN, h, w, y);
        assertThat(NccComparator.ncc(bx, by)).isCloseTo(NccComparator.ncc(x, y), within(1e-12));
    }

    @Test
    void ncc_ofConstantPattern_isZero() {
        float[] x = new float[100];
        java.util.Arrays.fill(x, 2f);
        assertThat(NccComparator.ncc(x, Reference.gaussian(100, 1))).isEqualTo(0.0);
    }

    @Test
    void ncc_ofSpectrumItem_isRejected() {
        ByteBuffer spectrum = Reference.item(PrnuLayout.KIND_SPECTRUM, 4, 4, new float[24]);
        ByteBuffer pattern = Reference.item(PrnuLayout.KIND_PATTERN, 4, 4, new float[16]);
        assertThatThrownBy(() -> NccComparator.ncc(spectrum, pattern)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("left item: expected a PATTERN item but found SPECTRUM");
    }
}
