package io.rocket.apps.forensics;

/**
 * Per-thread scratch for {@link PceComparator} at one image size: the product half spectrum (about 4 bytes per
 * pixel), one row of the correlation surface and the inverse-FFT plans. Allocated once, reused for every pair;
 * not thread-safe. After each comparison it also holds that pair's peak and energy, for diagnostics and tests.
 */
public final class PceWorkspace {

    final int height;
    final int width;
    final float[] product;
    final float[] row;
    final RealInverseFft2 inverse;
    double lastPeak;
    double lastEnergy;

    /** Scratch for h×w patterns. */
    public PceWorkspace(int height, int width) {
        if (height < 1 || width < 1) {
            throw new IllegalArgumentException("bad pattern size " + width + "x" + height);
        }
        this.height = height;
        this.width = width;
        this.product = new float[(int) (2 * HalfSpectrum.halfLength(height, width))];
        this.row = new float[width];
        this.inverse = new RealInverseFft2(height, width);
    }

    /** The correlation at lag (0, 0) of the last pair. */
    public double lastPeak() {
        return lastPeak;
    }

    /** The mean of c² outside the 11×11 box around the peak, of the last pair. */
    public double lastEnergy() {
        return lastEnergy;
    }
}
