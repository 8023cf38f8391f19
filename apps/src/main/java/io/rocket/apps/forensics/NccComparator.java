package io.rocket.apps.forensics;

import java.nio.ByteBuffer;

/**
 * The NCC compare step: NCC = Σ(x−x̄)(y−ȳ) / sqrt(Σ(x−x̄)² · Σ(y−ȳ)²) between two PRNU patterns, with the means
 * computed first and every sum accumulated in double (two passes). The means are subtracted even though patterns
 * are nearly zero-mean after {@link ZeroMeanTotal}: dropping them would silently bias the score of any input that
 * is not. Reads {@link PrnuLayout#KIND_PATTERN} items in place by absolute index: no allocation per pair. A
 * constant pattern (zero variance) correlates with nothing: its NCC is defined as 0.
 */
public final class NccComparator {

    private NccComparator() {
    }

    /** NCC of the PATTERN items at the two buffers' positions. */
    public static double ncc(ByteBuffer left, ByteBuffer right) {
        PrnuLayout.check(left, PrnuLayout.KIND_PATTERN, "left item");
        PrnuLayout.check(right, PrnuLayout.KIND_PATTERN, "right item");
        int h = PrnuLayout.height(left, left.position());
        int w = PrnuLayout.width(left, left.position());
        if (h != PrnuLayout.height(right, right.position()) || w != PrnuLayout.width(right, right.position())) {
            throw new IllegalArgumentException("patterns of different sizes: " + w + "x" + h + " and "
                    + PrnuLayout.width(right, right.position()) + "x" + PrnuLayout.height(right, right.position()));
        }
        int n = h * w;
        int a = left.position() + PrnuLayout.HEADER_BYTES;
        int b = right.position() + PrnuLayout.HEADER_BYTES;
        double sx = 0;
        double sy = 0;
        for (int i = 0; i < n; i++) {
            sx += left.getFloat(a + 4 * i);
            sy += right.getFloat(b + 4 * i);
        }
        double mx = sx / n;
        double my = sy / n;
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < n; i++) {
            double dx = left.getFloat(a + 4 * i) - mx;
            double dy = right.getFloat(b + 4 * i) - my;
            sxy += dx * dy;
            sxx += dx * dx;
            syy += dy * dy;
        }
        return ratio(sxy, sxx, syy);
    }

    /** NCC of two arrays of the same length (array API). */
    public static double ncc(float[] x, float[] y) {
        if (x.length != y.length) {
            throw new IllegalArgumentException("patterns of different lengths: " + x.length + " and " + y.length);
        }
        int n = x.length;
        double sx = 0;
        double sy = 0;
        for (int i = 0; i < n; i++) {
            sx += x[i];
            sy += y[i];
        }
        double mx = sx / n;
        double my = sy / n;
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < n; i++) {
            double dx = x[i] - mx;
            double dy = y[i] - my;
            sxy += dx * dy;
            sxx += dx * dx;
            syy += dy * dy;
        }
        return ratio(sxy, sxx, syy);
    }

    private static double ratio(double sxy, double sxx, double syy) {
        double denominator = Math.sqrt(sxx * syy);
        return denominator > 0 ? sxy / denominator : 0.0;
    }
}
