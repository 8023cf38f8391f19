package io.rocket.apps.forensics;

import org.jtransforms.fft.FloatFFT_2D;

/**
 * Per-thread scratch memory and FFT plan for {@link PrnuExtractor} at one image size, allocated once and reused
 * for every image: the gray image, two gradient arrays, the complex spectrum, the summed-area table of the power
 * spectrum and the zero-mean column sums. About 28 bytes per pixel (280 MB at 3648×2736). Not thread-safe: give
 * each worker thread its own instance.
 */
public final class PrnuWorkspace {

    final int height;
    final int width;
    final int pixels;
    final float[] gray;
    final float[] gx;
    final float[] gy;
    /** Complex interleaved h×w spectrum; holds the real residual in its first h·w floats before the FFT. */
    final float[] spectrum;
    final double[] summedArea;
    final double[] columnSums;
    final FloatFFT_2D fft;

    /** Scratch for h×w images (both at least 2). */
    public PrnuWorkspace(int height, int width) {
        if (height < 2 || width < 2) {
            throw new IllegalArgumentException("image too small for PRNU extraction: " + width + "x" + height);
        }
        long n = (long) height * width;
        if (2 * n > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("image too large for one Java array spectrum: " + width + "x"
                    + height);
        }
        this.height = height;
        this.width = width;
        this.pixels = (int) n;
        this.gray = new float[pixels];
        this.gx = new float[pixels];
        this.gy = new float[pixels];
        this.spectrum = new float[2 * pixels];
        this.summedArea = new double[(height + 1) * (width + 1)];
        this.columnSums = new double[2 * width];
        this.fft = new FloatFFT_2D(height, width);
    }

    /** Image height (rows). */
    public int height() {
        return height;
    }

    /** Image width (columns). */
    public int width() {
        return width;
    }
}
