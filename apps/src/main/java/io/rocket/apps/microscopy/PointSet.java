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
    /** The particle's components on the coarse and the fine cells, as parse binned them into the slot. */
    final BinnedPoints coarse;
    final BinnedPoints fine;

    PointSet(int capacity) {
        x = new double[capacity];
        y = new double[capacity];
        s2 = new double[capacity];
        coarse = new BinnedPoints(capacity);
        fine = new BinnedPoints(capacity);
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
        int kc = (int) slot.getDouble(32);
        coarse.load(slot, ParticleSlot.coarseOffset(count), kc, count);
        fine.load(slot, ParticleSlot.fineOffset(count, kc), (int) slot.getDouble(40), count);
    }
}
