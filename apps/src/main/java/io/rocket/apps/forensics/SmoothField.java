package io.rocket.apps.forensics;

import java.util.SplittableRandom;

/**
 * Smooth random fields for synthetic scenes: white Gaussian noise blurred by an approximate Gaussian of a given
 * σ, then stretched to a value range.
 *
 * <p>The Gaussian is approximated by three successive box blurs whose widths are chosen so that the total
 * variance equals σ² (the sum of three uniform kernels is already very close to a Gaussian, and each box pass
 * costs O(1) per pixel whatever σ is, where a true Gaussian of σ = 40 px would cost ~240 taps per pixel and
 * direction). Borders replicate the edge pixel.
 */
public final class SmoothField {

    private static final int PASSES = 3;

    private SmoothField() {
    }

    /**
     * A row-major h×w field of blurred noise stretched linearly to [lo, hi].
     */
    public static float[] generate(int h, int w, double sigma, double lo, double hi, SplittableRandom random) {
        float[] field = new float[h * w];
        for (int i = 0; i < field.length; i++) {
            field[i] = (float) random.nextGaussian();
        }
        blur(field, h, w, sigma);
        float min = Float.POSITIVE_INFINITY;
        float max = Float.NEGATIVE_INFINITY;
        for (float v : field) {
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        double scale = max > min ? (hi - lo) / (max - min) : 0;
        for (int i = 0; i < field.length; i++) {
            field[i] = (float) (lo + (field[i] - min) * scale);
        }
        return field;
    }

    /** Blurs {@code a} in place with the three-box approximation of a Gaussian of {@code sigma} pixels. */
    public static void blur(float[] a, int h, int w, double sigma) {
        int[] radii = boxRadii(sigma);
        float[] line = new float[Math.max(h, w)];
        float[] out = new float[Math.max(h, w)];
        for (int radius : radii) {
            for (int r = 0; r < h; r++) {
                System.arraycopy(a, r * w, line, 0, w);
                boxLine(line, w, radius, out);
                System.arraycopy(out, 0, a, r * w, w);
            }
            for (int c = 0; c < w; c++) {
                for (int r = 0; r < h; r++) {
                    line[r] = a[r * w + c];
                }
                boxLine(line, h, radius, out);
                for (int r = 0; r < h; r++) {
                    a[r * w + c] = out[r];
                }
            }
        }
    }

    /**
     * Radii of the three boxes: widths m_l or m_l + 2 (odd), mixed so that Σ (m² − 1)/12 = σ² as closely as
     * integer widths allow (Wells 1986).
     */
    static int[] boxRadii(double sigma) {
        double ideal = Math.sqrt(12 * sigma * sigma / PASSES + 1);
        int lower = (int) Math.floor(ideal);
        if (lower % 2 == 0) {
            lower--;
        }
        int upper = lower + 2;
        double mIdeal = (12 * sigma * sigma - PASSES * lower * lower - 4.0 * PASSES * lower - 3.0 * PASSES)
                / (-4.0 * lower - 4);
        long m = Math.round(mIdeal);
        int[] radii = new int[PASSES];
        for (int i = 0; i < PASSES; i++) {
            radii[i] = ((i < m ? lower : upper) - 1) / 2;
        }
        return radii;
    }

    /** Mean over [i − radius, i + radius] with replicated edges, by a running sum. */
    private static void boxLine(float[] in, int length, int radius, float[] out) {
        double sum = 0;
        for (int k = -radius; k <= radius; k++) {
            sum += in[clamp(k, length)];
        }
        double norm = 1.0 / (2 * radius + 1);
        for (int i = 0; i < length; i++) {
            out[i] = (float) (sum * norm);
            sum += in[clamp(i + radius + 1, length)] - in[clamp(i - radius, length)];
        }
    }

    private static int clamp(int i, int length) {
        return i < 0 ? 0 : (i >= length ? length - 1 : i);
    }
}
