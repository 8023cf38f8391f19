package io.rocket.apps.forensics;

/**
 * Step 2 of PRNU extraction, the fast noise filter: the first step of total-variation denoising, whose output is
 * the noise residual in which the sensor fingerprint lives.
 *
 * <p>With gradients by central differences (one-sided at the borders), each gradient is scaled by
 * 1/(1 + |∇I|), and the output is the divergence of that scaled field by the same difference scheme. Flat and
 * linear regions give exactly 0 (the scaled gradient is constant there), while edges are damped by the scaling so
 * they leak less scene content into the residual than a plain Laplacian would. Arrays are row-major h×w; the
 * caller passes the two gradient arrays as scratch so that nothing is allocated.
 */
public final class NoiseResidualFilter {

    private NoiseResidualFilter() {
    }

    /**
     * Writes the residual of {@code image} into {@code out[0, h·w)}.
     *
     * @param gx scratch of at least h·w floats (the scaled x gradient afterwards)
     * @param gy scratch of at least h·w floats (the scaled y gradient afterwards)
     */
    public static void apply(float[] image, int h, int w, float[] gx, float[] gy, float[] out) {
        gradientX(image, h, w, gx);
        gradientY(image, h, w, gy);
        int n = h * w;
        for (int i = 0; i < n; i++) {
            double dx = gx[i];
            double dy = gy[i];
            double s = 1.0 / (1.0 + Math.sqrt(dx * dx + dy * dy));
            gx[i] = (float) (dx * s);
            gy[i] = (float) (dy * s);
        }
        // divergence = d(gx)/dx + d(gy)/dy: first the x part into out, then add the y part
        gradientX(gx, h, w, out);
        if (h == 1) {
            return; // no y direction: d(gy)/dy is 0
        }
        for (int r = 0; r < h; r++) {
            int row = r * w;
            if (r == 0) {
                for (int c = 0; c < w; c++) {
                    out[c] += gy[w + c] - gy[c];
                }
            } else if (r == h - 1) {
                for (int c = 0; c < w; c++) {
                    out[row + c] += gy[row + c] - gy[row - w + c];
                }
            } else {
                for (int c = 0; c < w; c++) {
                    out[row + c] += 0.5f * (gy[row + w + c] - gy[row - w + c]);
                }
            }
        }
    }

    /** d/dx (along a row): central differences inside, one-sided at the first and last column. */
    static void gradientX(float[] a, int h, int w, float[] out) {
        for (int r = 0; r < h; r++) {
            int row = r * w;
            if (w == 1) {
                out[row] = 0;
                continue;
            }
            out[row] = a[row + 1] - a[row];
            for (int c = 1; c < w - 1; c++) {
                out[row + c] = 0.5f * (a[row + c + 1] - a[row + c - 1]);
            }
            out[row + w - 1] = a[row + w - 1] - a[row + w - 2];
        }
    }

    /** d/dy (along a column): central differences inside, one-sided at the first and last row. */
    static void gradientY(float[] a, int h, int w, float[] out) {
        if (h == 1) {
            java.util.Arrays.fill(out, 0, w, 0f);
            return;
        }
        for (int c = 0; c < w; c++) {
            out[c] = a[w + c] - a[c];
        }
        for (int r = 1; r < h - 1; r++) {
            int row = r * w;
            for (int c = 0; c < w; c++) {
                out[row + c] = 0.5f * (a[row + w + c] - a[row - w + c]);
            }
        }
        int last = (h - 1) * w;
        for (int c = 0; c < w; c++) {
            out[last + c] = a[last + c] - a[last - w + c];
        }
    }
}
