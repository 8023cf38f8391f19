package io.rocket.apps.forensics;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/** Slow, obviously-correct reference computations and small helpers shared by the tests. */
final class Reference {

    private Reference() {
    }

    static float[] gaussian(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (float) random.nextGaussian();
        }
        return x;
    }

    /** Naive 2D DFT of a real row-major h×w image: interleaved complex, sign −1 (forward), unnormalised. */
    static double[] dft(float[] x, int h, int w) {
        double[] out = new double[2 * h * w];
        for (int u = 0; u < h; u++) {
            for (int v = 0; v < w; v++) {
                double re = 0;
                double im = 0;
                for (int r = 0; r < h; r++) {
                    for (int c = 0; c < w; c++) {
                        double angle = -2 * Math.PI * ((double) u * r / h + (double) v * c / w);
                        re += x[r * w + c] * Math.cos(angle);
                        im += x[r * w + c] * Math.sin(angle);
                    }
                }
                out[2 * (u * w + v)] = re;
                out[2 * (u * w + v) + 1] = im;
            }
        }
        return out;
    }

    /** Circular cross-correlation c(τ) = Σ_m x(m)·y(m+τ), row-major h×w. */
    static double[] crossCorrelation(float[] x, float[] y, int h, int w) {
        double[] c = new double[h * w];
        for (int dr = 0; dr < h; dr++) {
            for (int dc = 0; dc < w; dc++) {
                double sum = 0;
                for (int r = 0; r < h; r++) {
                    for (int col = 0; col < w; col++) {
                        sum += (double) x[r * w + col] * y[((r + dr) % h) * w + (col + dc) % w];
                    }
                }
                c[dr * w + dc] = sum;
            }
        }
        return c;
    }

    /** PCE from its definition: peak c(0,0), energy = mean c² over lags at circular distance &gt; 5 in a dimension. */
    static double pce(float[] x, float[] y, int h, int w) {
        double[] c = crossCorrelation(x, y, h, w);
        double sum = 0;
        int count = 0;
        for (int r = 0; r < h; r++) {
            for (int col = 0; col < w; col++) {
                int dr = Math.min(r, h - r);
                int dc = Math.min(col, w - col);
                if (dr > 5 || dc > 5) {
                    sum += c[r * w + col] * c[r * w + col];
                    count++;
                }
            }
        }
        double peak = c[0];
        return Math.signum(peak) * peak * peak / (sum / count);
    }

    /** A little-endian direct buffer holding an item of {@code kind} with {@code data}. */
    static ByteBuffer item(int kind, int h, int w, float[] data) {
        ByteBuffer b = ByteBuffer.allocateDirect(PrnuLayout.HEADER_BYTES + 4 * data.length)
                .order(ByteOrder.LITTLE_ENDIAN);
        PrnuLayout.writeHeader(b, 0, kind, h, w);
        for (int i = 0; i < data.length; i++) {
            b.putFloat(PrnuLayout.HEADER_BYTES + 4 * i, data[i]);
        }
        return b;
    }

    /** The floats of an item's data. */
    static float[] data(ByteBuffer item, int count) {
        float[] out = new float[count];
        for (int i = 0; i < count; i++) {
            out[i] = item.getFloat(item.position() + PrnuLayout.HEADER_BYTES + 4 * i);
        }
        return out;
    }

    /** Half spectrum (columns 0..w/2) of a real image, from the naive DFT. */
    static float[] halfDft(float[] x, int h, int w) {
        double[] full = dft(x, h, w);
        int hw = w / 2 + 1;
        float[] half = new float[2 * h * hw];
        for (int r = 0; r < h; r++) {
            for (int c = 0; c < hw; c++) {
                half[2 * (r * hw + c)] = (float) full[2 * (r * w + c)];
                half[2 * (r * hw + c) + 1] = (float) full[2 * (r * w + c) + 1];
            }
        }
        return half;
    }
}
