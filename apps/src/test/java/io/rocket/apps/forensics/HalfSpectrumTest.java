package io.rocket.apps.forensics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.jtransforms.fft.FloatFFT_2D;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HalfSpectrumTest {

    /** Full C2C forward FFT of a real image (imaginary parts 0). */
    private static float[] c2c(float[] x, int h, int w) {
        float[] z = new float[2 * h * w];
        for (int i = 0; i < x.length; i++) {
            z[2 * i] = x[i];
        }
        new FloatFFT_2D(h, w).complexForward(z);
        return z;
    }

    @ParameterizedTest
    @CsvSource({"8,6", "7,5", "16,13", "9,12", "2,3"})
    void expand_halfOfRealImage_equalsFullC2cFft(int h, int w) {
        float[] x = Reference.gaussian(h * w, h * 31L + w);
        float[] half = Reference.halfDft(x, h, w);
        float[] full = new float[2 * h * w];
        HalfSpectrum.expand(half, h, w, full);
        assertThat(full).containsExactly(c2c(x, h, w), within(1e-3f));
    }

    @ParameterizedTest
    @CsvSource({"8,6", "7,5", "16,13", "9,12"})
    void hermitianPart_ofRealImageSpectrum_isItsHalf(int h, int w) {
        float[] x = Reference.gaussian(h * w, 99);
        float[] half = new float[(int) (2 * HalfSpectrum.halfLength(h, w))];
        HalfSpectrum.hermitianPart(c2c(x, h, w), h, w, half);
        assertThat(half).containsExactly(Reference.halfDft(x, h, w), within(1e-3f));
    }

    @ParameterizedTest
    @CsvSource({"8,6", "7,5", "16,13", "9,12"})
    void hermitianPart_ofNonHermitianSpectrum_isSpectrumOfRealPartOfInverse(int h, int w) {
        float[] g = Reference.gaussian(2 * h * w, 5); // an arbitrary complex spectrum
        float[] z = g.clone();
        new FloatFFT_2D(h, w).complexInverse(z, true);
        float[] re = new float[h * w];
        for (int i = 0; i < re.length; i++) {
            re[i] = z[2 * i];
        }
        float[] half = new float[(int) (2 * HalfSpectrum.halfLength(h, w))];
        HalfSpectrum.hermitianPart(g, h, w, half);
        assertThat(half).containsExactly(Reference.halfDft(re, h, w), within(1e-4f));
    }

    @ParameterizedTest
    @CsvSource({"8,6", "7,5", "16,13", "9,12", "12,1", "3,2"})
    void realInverseFft2_ofHalfSpectrum_givesBackTheImage(int h, int w) {
        float[] x = Reference.gaussian(h * w, 11);
        float[] half = Reference.halfDft(x, h, w);
        float[] out = new float[h * w];
        new RealInverseFft2(h, w).inverse(half, out, new float[w]);
        assertThat(out).containsExactly(x, within(1e-4f));
    }

    @ParameterizedTest
    @CsvSource({"8,6", "7,5", "16,13"})
    void realInverseFft2_ofProduct_equalsRealPartOfFullC2cInverse(int h, int w) {
        float[] x = Reference.gaussian(h * w, 1);
        float[] y = Reference.gaussian(h * w, 2);
        float[] hx = Reference.halfDft(x, h, w);
        float[] hy = Reference.halfDft(y, h, w);
        float[] product = new float[hx.length];
        for (int i = 0; i < product.length; i += 2) {
            product[i] = hx[i] * hy[i] + hx[i + 1] * hy[i + 1];
            product[i + 1] = hx[i] * hy[i + 1] - hx[i + 1] * hy[i];
        }
        float[] full = new float[2 * h * w];
        HalfSpectrum.expand(product, h, w, full);
        new FloatFFT_2D(h, w).complexInverse(full, true);
        float[] expected = new float[h * w];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = full[2 * i];
            assertThat(full[2 * i + 1]).isCloseTo(0f, within(1e-3f)); // Hermitian product: real surface
        }
        float[] out = new float[h * w];
        new RealInverseFft2(h, w).inverse(product, out, new float[w]);
        assertThat(out).containsExactly(expected, within(1e-3f));
        double[] direct = Reference.crossCorrelation(x, y, h, w);
        for (int i = 0; i < out.length; i++) {
            assertThat((double) out[i]).isCloseTo(direct[i], within(1e-3));
        }
    }
}
