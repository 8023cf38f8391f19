package io.rocket.apps.forensics;

import org.jtransforms.fft.FloatFFT_1D;

/**
 * A complex-to-real 2D inverse DFT for h×w images from their R2C half spectrum, built from JTransforms 1D plans
 * (JTransforms' own 2D real transforms need power-of-two sizes; camera images are not).
 *
 * <p>First a complex inverse down each of the w/2+1 half columns (in blocks of {@value #BLOCK} columns, so that
 * each pass over the rows reads whole cache lines), then, row by row, a real inverse of length w from the
 * row's w/2+1 values packed in JTransforms' real layout. Both passes scale by their length, so the result is
 * the true inverse: x = (1/n) Σ_k X(k) e^{+2πi k·x/n}. Rows are handed out one at a time so that a caller (PCE)
 * can reduce them without storing the whole h×w surface. Not thread-safe: one per thread, sized once.
 *
 * <p>Our code allocates nothing per call; JTransforms' mixed-radix plans (sizes with factors other than 2)
 * allocate a temporary array of the transform length inside each 1D call, which we cannot avoid through its API.
 */
public final class RealInverseFft2 {

    private static final int BLOCK = 8;

    private final int h;
    private final int w;
    private final int hw;
    private final FloatFFT_1D columnFft;
    private final FloatFFT_1D rowFft;
    private final float[][] columns;

    /** Plans and scratch for h×w images. */
    public RealInverseFft2(int h, int w) {
        this.h = h;
        this.w = w;
        this.hw = w / 2 + 1;
        this.columnFft = new FloatFFT_1D(h);
        this.rowFft = new FloatFFT_1D(w);
        this.columns = new float[BLOCK][2 * h];
    }

    /** Complex inverse (scaled by 1/h) of every half column of {@code half}, in place. */
    public void inverseColumns(float[] half) {
        for (int c0 = 0; c0 < hw; c0 += BLOCK) {
            int count = Math.min(BLOCK, hw - c0);
            for (int r = 0; r < h; r++) {
                int a = 2 * (r * hw + c0);
                for (int b = 0; b < count; b++, a += 2) {
                    columns[b][2 * r] = half[a];
                    columns[b][2 * r + 1] = half[a + 1];
                }
            }
            for (int b = 0; b < count; b++) {
                columnFft.complexInverse(columns[b], true);
            }
            for (int r = 0; r < h; r++) {
                int a = 2 * (r * hw + c0);
                for (int b = 0; b < count; b++, a += 2) {
                    half[a] = columns[b][2 * r];
                    half[a + 1] = columns[b][2 * r + 1];
                }
            }
        }
    }

    /**
     * Real inverse (scaled by 1/w) of row {@code r} of a column-inverted half spectrum into {@code out[0, w)}.
     * The imaginary parts of column 0 (and of column w/2 for even w) are ignored: they are 0 for a real image.
     */
    public void inverseRow(float[] half, int r, float[] out) {
        int a = 2 * r * hw;
        out[0] = half[a];
        if (w == 1) {
            return;
        }
        if ((w & 1) == 0) {
            out[1] = half[a + 2 * (w / 2)];
            System.arraycopy(half, a + 2, out, 2, w - 2);
        } else {
            int m = (w - 1) / 2;
            System.arraycopy(half, a + 2, out, 2, w - 3);
            out[w - 1] = half[a + 2 * m];
            out[1] = half[a + 2 * m + 1];
        }
        rowFft.realInverse(out, true);
    }

    /** The full inverse into a row-major h×w array (for tests and one-off use; PCE reduces row by row). */
    public void inverse(float[] half, float[] out, float[] row) {
        inverseColumns(half);
        for (int r = 0; r < h; r++) {
            inverseRow(half, r, row);
            System.arraycopy(row, 0, out, r * w, w);
        }
    }
}
