package io.rocket.apps.forensics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PceComparatorTest {

    @ParameterizedTest
    @CsvSource({"16,13", "14,12", "12,17", "20,20"})
    void pce_smallImages_matchesDirectCircularCorrelation(int h, int w) {
        float[] x = Reference.gaussian(h * w, 10);
        float[] noise = Reference.gaussian(h * w, 20);
        float[] y = new float[h * w];
        for (int i = 0; i < y.length; i++) {
            y[i] = 0.4f * x[i] + noise[i];
        }
        PceWorkspace ws = new PceWorkspace(h, w);
        double pce = PceComparator.pce(Reference.halfDft(x, h, w), Reference.halfDft(y, h, w), ws);
        double expected = Reference.pce(x, y, h, w);
        assertThat(pce).isCloseTo(expected, within(1e-4 * Math.abs(expected)));
        assertThat(ws.lastPeak()).isCloseTo(Reference.crossCorrelation(x, y, h, w)[0], within(1e-3));
    }

    @Test
    void pce_anticorrelated_isNegative() {
        int h = 16;
        int w = 16;
        float[] x = Reference.gaussian(h * w, 1);
        float[] y = new float[h * w];
        for (int i = 0; i < y.length; i++) {
            y[i] = -x[i];
        }
        double pce = PceComparator.pce(Reference.halfDft(x, h, w), Reference.halfDft(y, h, w), new PceWorkspace(h, w));
        assertThat(pce).isLessThan(-50).isCloseTo(Reference.pce(x, y, h, w), within(1e-3 * Math.abs(pce)));
    }

    @Test
    void pce_peakMassInsideWrappedBox_isExcludedFromEnergy() {
        // y is x shifted by (−3, −4): the surface's big value sits at lag (h−3, w−4), inside the box only if the
        // box wraps around the edges; then the energy is small and the PCE large in magnitude relative to a
        // non-wrapping box, whose energy would contain the whole shifted peak
        int h = 32;
        int w = 32;
        float[] x = Reference.gaussian(h * w, 5);
        float[] y = new float[h * w];
        for (int r = 0; r < h; r++) {
            for (int c = 0; c < w; c++) {
                y[((r - 3 + h) % h) * w + (c - 4 + w) % w] = x[r * w + c];
            }
        }
        PceWorkspace ws = new PceWorkspace(h, w);
        PceComparator.pce(Reference.halfDft(x, h, w), Reference.halfDft(y, h, w), ws);
        double[] c = Reference.crossCorrelation(x, y, h, w);
        double outside = 0;
        int count = 0;
        for (int r = 0; r < h; r++) {
            for (int col = 0; col < w; col++) {
                if (Math.min(r, h - r) > 5 || Math.min(col, w - col) > 5) {
                    outside += c[r * w + col] * c[r * w + col];
                    count++;
                }
            }
        }
        assertThat(ws.lastEnergy()).isCloseTo(outside / count, within(1e-3 * outside / count));
        assertThat(ws.lastEnergy()).isLessThan(0.01 * c[(h - 3) * w + (w - 4)] * c[(h - 3) * w + (w - 4)]);
    }

    @Test
    void pce_ofPatternWithItself_isLargeAndWithIndependentOneSmall() {
        int h = 256;
        int w = 192;
        PrnuWorkspace prnu = new PrnuWorkspace(h, w);
        float[] a = PrnuExtractor.halfSpectrum(Reference.gaussian(h * w, 1), prnu);
        float[] b = PrnuExtractor.halfSpectrum(Reference.gaussian(h * w, 2), prnu);
        PceWorkspace ws = new PceWorkspace(h, w);
        assertThat(PceComparator.pce(a, a, ws)).isGreaterThan(10_000);
        assertThat(Math.abs(PceComparator.pce(a, b, ws))).isLessThan(20);
    }

    @Test
    void pce_ofItemsInBuffers_equalsArrayVersion() {
        int h = 24;
        int w = 15;
        float[] hx = Reference.halfDft(Reference.gaussian(h * w, 7), h, w);
        float[] hy = Reference.halfDft(Reference.gaussian(h * w, 8), h, w);
        ByteBuffer bx = Reference.item(PrnuLayout.KIND_SPECTRUM, h, w, hx);
        ByteBuffer by = Reference.item(PrnuLayout.KIND_SPECTRUM, h, w, hy);
        PceWorkspace ws = new PceWorkspace(h, w);
        double fromArrays = PceComparator.pce(hx, hy, ws);
        assertThat(PceComparator.pce(bx, by, ws)).isEqualTo(fromArrays);
    }

    @Test
    void inBox_wrapsAroundBothEnds() {
        assertThat(PceComparator.inBox(0, 64)).isTrue();
        assertThat(PceComparator.inBox(5, 64)).isTrue();
        assertThat(PceComparator.inBox(6, 64)).isFalse();
        assertThat(PceComparator.inBox(59, 64)).isTrue();
        assertThat(PceComparator.inBox(58, 64)).isFalse();
        assertThat(PceComparator.boxLength(64)).isEqualTo(11);
        assertThat(PceComparator.boxLength(7)).isEqualTo(7);
    }
}
