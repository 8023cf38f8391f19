package io.rocket.apps.forensics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.jtransforms.fft.FloatFFT_2D;
import org.junit.jupiter.api.Test;

class WienerDftFilterTest {

    /** Runs the filter the way PrnuExtractor does: FFT, filter, scaled inverse, real part. */
    private static float[] filter(float[] x, int h, int w) {
        float[] z = new float[2 * h * w];
        System.arraycopy(x, 0, z, 0, x.length);
        double sigma2 = WienerDftFilter.noiseVariance(z, h * w);
        FloatFFT_2D fft = new FloatFFT_2D(h, w);
        fft.realForwardFull(z);
        WienerDftFilter.apply(z, h, w, sigma2, new double[(h + 1) * (w + 1)]);
        fft.complexInverse(z, true);
        float[] out = new float[h * w];
        for (int i = 0; i < out.length; i++) {
            out[i] = z[2 * i];
        }
        return out;
    }

    @Test
    void localMinimumMean_randomPower_matchesBruteForceWithZeroPadding() {
        int h = 13;
        int w = 10;
        SplittableRandom random = new SplittableRandom(7);
        float[] z = new float[2 * h * w];
        double[] p = new double[h * w];
        for (int i = 0; i < h * w; i++) {
            z[2 * i] = (float) (random.nextDouble() * 10);
            z[2 * i + 1] = (float) (random.nextGaussian());
            p[i] = (double) z[2 * i] * z[2 * i] + (double) z[2 * i + 1] * z[2 * i + 1];
        }
        double[] sat = new double[(h + 1) * (w + 1)];
        WienerDftFilter.buildSummedArea(z, h, w, sat);
        for (int r = 0; r < h; r++) {
            for (int c = 0; c < w; c++) {
                double best = Double.POSITIVE_INFINITY;
                for (int side = 3; side <= 9; side += 2) {
                    double sum = 0;
                    for (int dr = -side / 2; dr <= side / 2; dr++) {
                        for (int dc = -side / 2; dc <= side / 2; dc++) {
                            int rr = r + dr;
                            int cc = c + dc;
                            if (rr >= 0 && rr < h && cc >= 0 && cc < w) {
                                sum += p[rr * w + cc];
                            }
                        }
                    }
                    best = Math.min(best, sum / (side * side));
                }
                assertThat(WienerDftFilter.localMinimumMean(sat, h, w, r, c)).isCloseTo(best, within(1e-9 * best));
            }
        }
    }

    @Test
    void apply_impulse_flatSpectrumPassesUnchanged() {
        // |F|² = 1 everywhere ≤ σ² = n/(n−1): the gain is 1, so the output must equal the input exactly;
        // this pins down the 1/n of the inverse (JTransforms' scaled inverse, no second division)
        int h = 24;
        int w = 18;
        float[] x = new float[h * w];
        x[5 * w + 7] = 1f;
        float[] out = filter(x, h, w);
        assertThat(out).containsExactly(x, within(1e-5f));
    }

    @Test
    void apply_whiteNoise_keepsMostOfTheSignal() {
        int h = 128;
        int w = 96;
        float[] x = Reference.gaussian(h * w, 42);
        float[] out = filter(x, h, w);
        double ncc = NccComparator.ncc(x, out);
        double energyIn = 0;
        double energyOut = 0;
        for (int i = 0; i < x.length; i++) {
            energyIn += x[i] * x[i];
            energyOut += out[i] * out[i];
        }
        // white noise has a flat expected spectrum: only bins whose local means all exceed σ² are damped, mildly
        assertThat(ncc).isGreaterThan(0.97);
        assertThat(energyOut / energyIn).isBetween(0.85, 1.0);
    }

    @Test
    void apply_noisePlusStrongPeriodicTone_suppressesTheTone() {
        int h = 128;
        int w = 128;
        float[] noise = Reference.gaussian(h * w, 3);
        float[] tone = new float[h * w];
        for (int r = 0; r < h; r++) {
            for (int c = 0; c < w; c++) {
                tone[r * w + c] = (float) (4.0 * Math.cos(2 * Math.PI * 16 * c / w)); // an 8-px period artefact
            }
        }
        float[] x = new float[h * w];
        for (int i = 0; i < x.length; i++) {
            x[i] = noise[i] + tone[i];
        }
        float[] out = filter(x, h, w);
        double toneIn = 0;
        double toneOut = 0;
        for (int i = 0; i < x.length; i++) {
            toneIn += x[i] * tone[i];
            toneOut += out[i] * tone[i];
        }
        assertThat(toneOut / toneIn).isLessThan(0.05);
        assertThat(NccComparator.ncc(noise, out)).isGreaterThan(0.9);
    }

    @Test
    void apply_zeroVariance_givesZeroSpectrum() {
        float[] z = new float[2 * 16];
        z[0] = 3f;
        WienerDftFilter.apply(z, 4, 4, 0.0, new double[25]);
        assertThat(z).containsOnly(0f);
    }

    @Test
    void noiseVariance_isUnbiasedTimesN() {
        float[] x = {1f, -2f, 3f, 0f};
        assertThat(WienerDftFilter.noiseVariance(x, 4)).isCloseTo(14.0 * 4 / 3, within(1e-12));
    }
}
