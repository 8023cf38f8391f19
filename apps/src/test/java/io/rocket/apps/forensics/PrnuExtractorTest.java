package io.rocket.apps.forensics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jtransforms.fft.FloatFFT_2D;
import org.junit.jupiter.api.Test;

class PrnuExtractorTest {

    private static float[] image(int h, int w, long seed) {
        float[] noise = Reference.gaussian(h * w, seed);
        float[] x = new float[h * w];
        for (int r = 0; r < h; r++) {
            for (int c = 0; c < w; c++) {
                x[r * w + c] = (float) (120 + 60 * Math.sin(r / 9.0) * Math.cos(c / 13.0) + 3 * noise[r * w + c]);
            }
        }
        return x;
    }

    @Test
    void extract_pceItem_isTheR2cSpectrumOfTheNccPattern() {
        int h = 48;
        int w = 38;
        float[] gray = image(h, w, 1);
        PrnuWorkspace ws = new PrnuWorkspace(h, w);
        ByteBuffer in = Reference.item(PrnuLayout.KIND_GRAY, h, w, gray);
        ByteBuffer pattern = ByteBuffer.allocateDirect((int) PrnuLayout.patternBytes(h, w)).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer spectrum = ByteBuffer.allocateDirect((int) PrnuLayout.spectrumBytes(h, w))
                .order(ByteOrder.LITTLE_ENDIAN);
        assertThat(PrnuExtractor.extract("a.jpg", in, pattern, Metric.NCC, ws)).isEqualTo(pattern.capacity());
        assertThat(PrnuExtractor.extract("a.jpg", in, spectrum, Metric.PCE, ws)).isEqualTo(spectrum.capacity());
        assertThat(PrnuLayout.kind(pattern, 0)).isEqualTo(PrnuLayout.KIND_PATTERN);
        assertThat(PrnuLayout.kind(spectrum, 0)).isEqualTo(PrnuLayout.KIND_SPECTRUM);

        float[] x = Reference.data(pattern, h * w);
        float[] z = new float[2 * h * w];
        System.arraycopy(x, 0, z, 0, x.length);
        new FloatFFT_2D(h, w).realForwardFull(z);
        float[] expected = new float[(int) (2 * HalfSpectrum.halfLength(h, w))];
        HalfSpectrum.hermitianPart(z, h, w, expected);
        float[] actual = Reference.data(spectrum, expected.length);
        float scale = 0;
        for (float v : expected) {
            scale = Math.max(scale, Math.abs(v));
        }
        assertThat(actual).containsExactly(expected, within(1e-4f * scale));
    }

    @Test
    void pattern_ofNoisyImage_tracksItsNoiseAndNotOtherNoise() {
        int h = 64;
        int w = 64;
        float[] p = PrnuExtractor.pattern(image(h, w, 2), new PrnuWorkspace(h, w));
        // the divergence of the (scaled) gradient is a Laplacian-like high-pass, so it is the image noise with
        // the opposite sign, as written in apps.md; both patterns of a pair carry the same sign, so scores are not
        // affected
        assertThat(NccComparator.ncc(p, Reference.gaussian(h * w, 2))).isLessThan(-0.5);
        assertThat(Math.abs(NccComparator.ncc(p, Reference.gaussian(h * w, 3)))).isLessThan(0.05);
    }

    @Test
    void pattern_constantImage_isAllZero() {
        float[] gray = new float[32 * 24];
        java.util.Arrays.fill(gray, 99f);
        assertThat(PrnuExtractor.pattern(gray, new PrnuWorkspace(32, 24))).containsOnly(0f);
    }

    @Test
    void extract_outputTooSmall_throwsNamingTheItem() {
        PrnuWorkspace ws = new PrnuWorkspace(16, 16);
        ByteBuffer in = Reference.item(PrnuLayout.KIND_GRAY, 16, 16, new float[256]);
        ByteBuffer out = ByteBuffer.allocateDirect(100);
        assertThatThrownBy(() -> PrnuExtractor.extract("b.jpg", in, out, Metric.PCE, ws))
                .isInstanceOf(BufferTooSmallException.class)
                .hasMessageStartingWith("b.jpg: PCE item 16x16 needs " + PrnuLayout.spectrumBytes(16, 16));
    }

    @Test
    void extract_wrongSizeOrKind_isRejected() {
        PrnuWorkspace ws = new PrnuWorkspace(16, 16);
        ByteBuffer out = ByteBuffer.allocateDirect(4096);
        ByteBuffer other = Reference.item(PrnuLayout.KIND_GRAY, 8, 32, new float[256]);
        assertThatThrownBy(() -> PrnuExtractor.extract("c.jpg", other, out, Metric.NCC, ws))
                .hasMessage("c.jpg: image is 32x8 but the workspace is for 16x16");
        ByteBuffer pattern = Reference.item(PrnuLayout.KIND_PATTERN, 16, 16, new float[256]);
        assertThatThrownBy(() -> PrnuExtractor.extract("d.jpg", pattern, out, Metric.NCC, ws))
                .hasMessage("d.jpg: expected a GRAY item but found PATTERN");
    }

    @Test
    void layout_sizes_matchTheDocumentedFormulas() {
        assertThat(PrnuLayout.grayBytes(2736, 3648)).isEqualTo(16 + 4L * 2736 * 3648);
        assertThat(PrnuLayout.spectrumBytes(2736, 3648)).isEqualTo(16 + 8L * 2736 * 1825);
        assertThat(PrnuLayout.spectrumBytes(5, 7)).isEqualTo(16 + 8L * 5 * 4);
        assertThat(PrnuLayout.itemBytes(Metric.NCC, 10, 10)).isEqualTo(416);
    }
}
