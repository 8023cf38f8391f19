package io.rocket.apps.forensics;

/**
 * Step 3 of PRNU extraction: removes the linear patterns that colour interpolation and JPEG blocking add to every
 * camera alike (and that would otherwise correlate unrelated cameras).
 *
 * <p>For every column, the mean of its even-indexed rows is subtracted from the even rows and the mean of its
 * odd-indexed rows from the odd rows; then the same for every row over its even and odd columns. Means are
 * accumulated in double. After both passes every column and every row has zero mean over its even and over its
 * odd entries (the row pass keeps the column means at zero, since it subtracts per-row constants whose average
 * over a column parity is itself an already-zero column mean). Works in place on a row-major h×w array.
 */
public final class ZeroMeanTotal {

    private ZeroMeanTotal() {
    }

    /**
     * Applies both passes to {@code x[0, h·w)}.
     *
     * @param columnScratch at least 2·w doubles (per-column sums for the even and odd rows)
     */
    public static void apply(float[] x, int h, int w, double[] columnScratch) {
        columns(x, h, w, columnScratch);
        rows(x, h, w);
    }

    /** The column pass, walking rows in memory order and keeping per-column sums. */
    static void columns(float[] x, int h, int w, double[] sums) {
        java.util.Arrays.fill(sums, 0, 2 * w, 0.0);
        for (int r = 0; r < h; r++) {
            int parity = (r & 1) * w;
            int row = r * w;
            for (int c = 0; c < w; c++) {
                sums[parity + c] += x[row + c];
            }
        }
        int evenRows = (h + 1) / 2;
        int oddRows = h / 2;
        for (int c = 0; c < w; c++) {
            sums[c] /= evenRows;
            if (oddRows > 0) {
                sums[w + c] /= oddRows;
            }
        }
        for (int r = 0; r < h; r++) {
            int parity = (r & 1) * w;
            int row = r * w;
            for (int c = 0; c < w; c++) {
                x[row + c] = (float) (x[row + c] - sums[parity + c]);
            }
        }
    }

    /** The row pass. */
    static void rows(float[] x, int h, int w) {
        int evenCols = (w + 1) / 2;
        int oddCols = w / 2;
        for (int r = 0; r < h; r++) {
            int row = r * w;
            double even = 0;
            double odd = 0;
            for (int c = 0; c + 1 < w; c += 2) {
                even += x[row + c];
                odd += x[row + c + 1];
            }
            if ((w & 1) == 1) {
                even += x[row + w - 1];
            }
            even /= evenCols;
            odd = oddCols > 0 ? odd / oddCols : 0;
            for (int c = 0; c < w; c++) {
                x[row + c] = (float) (x[row + c] - ((c & 1) == 0 ? even : odd));
            }
        }
    }
}
