package io.rocket.apps.forensics;

/**
 * Step 4 of PRNU extraction: the Wiener filter in the DFT domain, which flattens the spectrum of the residual so
 * that periodic artefacts shared by all cameras (JPEG blocks, demosaicing peaks) do not dominate the correlation.
 *
 * <p>On the full spectrum F of the residual x (unnormalised forward DFT): P = |F|²; local(k) = the minimum over
 * window sizes 3, 5, 7, 9 of the mean of P in the w×w window centred on k, zero-padded outside the spectrum (the
 * window sum is divided by w² even where the window is clipped, and the spectrum does not wrap); σ² = n/(n−1)·Σx²,
 * on the same scale as P by Parseval; F(k) ← F(k)·σ²/max(σ², local(k)). Window sums come from one summed-area
 * table of P in double, so each window costs four lookups whatever its size. The caller then takes
 * x ← Re(IFFT2(F))/n: the unnormalised inverse divided by n is exactly JTransforms' inverse with {@code scale =
 * true}, so no further division follows it.
 *
 * <p>The spectrum is complex interleaved, row-major: F(r, c) = (z[2(r·w+c)], z[2(r·w+c)+1]).
 */
public final class WienerDftFilter {

    /** Half-widths of the windows 3, 5, 7, 9. */
    private static final int MAX_HALF = 4;

    private WienerDftFilter() {
    }

    /** σ² = n/(n−1)·Σx² over {@code x[0, n)}, in double. */
    public static double noiseVariance(float[] x, int n) {
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += (double) x[i] * x[i];
        }
        return n > 1 ? sum * n / (n - 1) : sum;
    }

    /**
     * Applies the filter to the spectrum {@code z} in place.
     *
     * @param sigma2 σ² from {@link #noiseVariance}; 0 (a constant residual) zeroes the spectrum
     * @param sat    scratch of at least (h+1)·(w+1) doubles
     */
    public static void apply(float[] z, int h, int w, double sigma2, double[] sat) {
        if (!(sigma2 > 0)) {
            java.util.Arrays.fill(z, 0, 2 * h * w, 0f);
            return;
        }
        buildSummedArea(z, h, w, sat);
        for (int r = 0; r < h; r++) {
            for (int c = 0; c < w; c++) {
                double local = localMinimumMean(sat, h, w, r, c);
                if (local > sigma2) {
                    float gain = (float) (sigma2 / local);
                    int i = 2 * (r * w + c);
                    z[i] *= gain;
                    z[i + 1] *= gain;
                }
            }
        }
    }

    /** sat[(r)·(w+1) + c] = Σ P over rows [0, r) and columns [0, c), with P = |z|². */
    static void buildSummedArea(float[] z, int h, int w, double[] sat) {
        int stride = w + 1;
        java.util.Arrays.fill(sat, 0, stride, 0.0);
        for (int r = 0; r < h; r++) {
            int above = r * stride;
            int here = above + stride;
            sat[here] = 0;
            double rowSum = 0;
            int zi = 2 * r * w;
            for (int c = 0; c < w; c++, zi += 2) {
                double re = z[zi];
                double im = z[zi + 1];
                rowSum += re * re + im * im;
                sat[here + c + 1] = sat[above + c + 1] + rowSum;
            }
        }
    }

    /** min over w ∈ {3, 5, 7, 9} of (Σ P in the w×w window around (r, c), clipped) / w². */
    static double localMinimumMean(double[] sat, int h, int w, int r, int c) {
        int stride = w + 1;
        double best = Double.POSITIVE_INFINITY;
        for (int half = 1; half <= MAX_HALF; half++) {
            int r0 = Math.max(0, r - half);
            int r1 = Math.min(h, r + half + 1);
            int c0 = Math.max(0, c - half);
            int c1 = Math.min(w, c + half + 1);
            double sum = sat[r1 * stride + c1] - sat[r0 * stride + c1] - sat[r1 * stride + c0]
                    + sat[r0 * stride + c0];
            int side = 2 * half + 1;
            double mean = sum / (side * side);
            if (mean < best) {
                best = mean;
            }
        }
        return best;
    }
}
