package io.rocket.apps.microscopy;

import java.nio.ByteBuffer;

/**
 * A centred particle as plain arrays, the form the cpu kernels loop over. One per side of a pair in each device's
 * workspace, filled from the cached slot at the start of a compare (O(n), against the O(mn) work per cost call) and
 * reused for every pair, so the hot loops read arrays rather than a buffer.
 */
final class PointSet {
    final double[] x;
    final double[] y;
    final double[] s2;
    int n;
    double cx;
    double cy;
    double rms;

    PointSet(int capacity) {
        x = new double[capacity];
        y = new double[capacity];
        s2 = new double[capacity];
    }

    /** Loads the particle in {@code slot} (the {@link ParticleSlot} layout, little-endian, absolute reads). */
    void load(ByteBuffer slot) {
        int count = ParticleSlot.count(slot);
        if (count < 1 || count > x.length) {
            throw new IllegalStateException("slot holds " + count + " localizations; this workspace fits "
                    + x.length);
        }
        n = count;
        cx = slot.getDouble(8);
        cy = slot.getDouble(16);
        rms = slot.getDouble(24);
        int xs = ParticleSlot.HEADER_BYTES;
        int ys = xs + count * Double.BYTES;
        int ss = ys + count * Double.BYTES;
        for (int k = 0; k < count; k++) {
            x[k] = slot.getDouble(xs + k * Double.BYTES);
            y[k] = slot.getDouble(ys + k * Double.BYTES);
            s2[k] = slot.getDouble(ss + k * Double.BYTES);
        }
    }

    /**
     * Loads the header and positions of a slot read back as doubles ({@code words}: the header, then x[n], y[n];
     * the variances are not read and left as they were).
     */
    void loadPositions(double[] words) {
        int count = (int) words[0];
        if (count < 1 || count > x.length) {
            throw new IllegalStateException("slot holds " + count + " localizations; this workspace fits "
                    + x.length);
        }
        n = count;
        cx = words[1];
        cy = words[2];
        rms = words[3];
        int xs = ParticleSlot.HEADER_DOUBLES;
        System.arraycopy(words, xs, x, 0, count);
        System.arraycopy(words, xs + count, y, 0, count);
    }
}
