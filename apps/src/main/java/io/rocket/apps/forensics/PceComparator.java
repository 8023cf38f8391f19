package io.rocket.apps.forensics;

import java.nio.ByteBuffer;

/**
 * The PCE compare step: peak-to-correlation energy between two PRNU patterns given as R2C half spectra
 * ({@link PrnuLayout#KIND_SPECTRUM} items).
 *
 * <p>c = IFFT2(conj(X)·Y) is the circular cross-correlation over all lags, c(τ) = Σ_m x(m)·y(m+τ) (real, since
 * the product of two real images' spectra is Hermitian); it is computed from the half spectra by a
 * complex-to-real inverse ({@link RealInverseFft2}), which is equivalent to rebuilding the full spectrum with
 * X(r, c) = conj(X((h−r) mod h, w−c)) and taking the real part of a full complex inverse. The peak is c at lag
 * (0, 0): common-source identification assumes aligned images. The energy is the mean of c² over all lags
 * outside the 11×11 box centred on the peak, the box wrapping around the edges (lags −5..5 in each direction,
 * modulo the size). PCE = sign(peak)·peak²/energy. The surface is reduced row by row, never stored whole; sums
 * are in double; scratch comes from a caller-owned {@link PceWorkspace}.
 */
public final class PceComparator {

    /** Half-width of the box around the peak excluded from the energy (11×11). */
    public static final int BOX_HALF = 5;

    private PceComparator() {
    }

    /** PCE of the SPECTRUM items at the two buffers' positions (positions not moved). */
    public static double pce(ByteBuffer left, ByteBuffer right, PceWorkspace ws) {
        PrnuLayout.check(left, PrnuLayout.KIND_SPECTRUM, "left item");
        PrnuLayout.check(right, PrnuLayout.KIND_SPECTRUM, "right item");
        checkSize(PrnuLayout.height(left, left.position()), PrnuLayout.width(left, left.position()), ws);
        checkSize(PrnuLayout.height(right, right.position()), PrnuLayout.width(right, right.position()), ws);
        int a = left.position() + PrnuLayout.HEADER_BYTES;
        int b = right.position() + PrnuLayout.HEADER_BYTES;
        float[] z = ws.product;
        for (int i = 0; i < z.length; i += 2, a += 8, b += 8) {
            float xr = left.getFloat(a);
            float xi = left.getFloat(a + 4);
            float yr = right.getFloat(b);
            float yi = right.getFloat(b + 4);
            z[i] = xr * yr + xi * yi;
            z[i + 1] = xr * yi - xi * yr;
        }
        return reduce(ws);
    }

    /** PCE of two half spectra given as arrays (array API; same layout as the item data). */
    public static double pce(float[] x, float[] y, PceWorkspace ws) {
        float[] z = ws.product;
        if (x.length < z.length || y.length < z.length) {
            throw new IllegalArgumentException("half spectra need " + z.length + " floats for " + ws.width + "x"
                    + ws.height);
        }
        for (int i = 0; i < z.length; i += 2) {
            z[i] = x[i] * y[i] + x[i + 1] * y[i + 1];
            z[i + 1] = x[i] * y[i + 1] - x[i + 1] * y[i];
        }
        return reduce(ws);
    }

    /** Inverts the product spectrum in the workspace and reduces the surface to the PCE. */
    private static double reduce(PceWorkspace ws) {
        int h = ws.height;
        int w = ws.width;
        ws.inverse.inverseColumns(ws.product);
        double outsideSum = 0;
        double peak = 0;
        float[] row = ws.row;
        for (int r = 0; r < h; r++) {
            ws.inverse.inverseRow(ws.product, r, row);
            double rowSum = 0;
            if (inBox(r, h)) {
                for (int c = 0; c < w; c++) {
                    if (!inBox(c, w)) {
                        rowSum += (double) row[c] * row[c];
                    }
                }
            } else {
                for (int c = 0; c < w; c++) {
                    rowSum += (double) row[c] * row[c];
                }
            }
            outsideSum += rowSum;
            if (r == 0) {
                peak = row[0];
            }
        }
        long boxCount = (long) boxLength(h) * boxLength(w);
        long outside = (long) h * w - boxCount;
        double energy = outside > 0 ? outsideSum / outside : 0.0;
        ws.lastPeak = peak;
        ws.lastEnergy = energy;
        if (!(energy > 0)) {
            return 0.0; // degenerate (constant patterns or images smaller than the box): no evidence either way
        }
        return Math.signum(peak) * peak * peak / energy;
    }

    /** Whether lag index i (0..size−1, circular) is within ±BOX_HALF of 0. */
    static boolean inBox(int i, int size) {
        return Math.min(i, size - i) <= BOX_HALF;
    }

    /** How many distinct lags of a dimension of {@code size} the box covers. */
    static int boxLength(int size) {
        return Math.min(size, 2 * BOX_HALF + 1);
    }

    private static void checkSize(int h, int w, PceWorkspace ws) {
        if (h != ws.height || w != ws.width) {
            throw new IllegalArgumentException("spectrum of a " + w + "x" + h + " pattern but the workspace is for "
                    + ws.width + "x" + ws.height);
        }
    }
}
