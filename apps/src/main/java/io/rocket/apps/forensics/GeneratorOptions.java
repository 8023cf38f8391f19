package io.rocket.apps.forensics;

/**
 * Parameters of a synthetic PRNU photo set (see {@link ForensicsGenerator}): {@code cameras} cameras with
 * {@code imagesPerCamera} photos each, {@code width}×{@code height} pixels, fingerprint strength σ_K (relative
 * PRNU standard deviation; 0.02 is easy, 0.01 needs ~1 Mpixel, 0.005 and below are not separable), JPEG quality
 * 1–100 (apps.md uses 75–90) and the seed that fixes every random draw.
 */
public record GeneratorOptions(int cameras, int imagesPerCamera, int width, int height, double sigmaK, int quality,
        long seed) {

    /** Validates the parameters. */
    public GeneratorOptions {
        if (cameras < 1 || imagesPerCamera < 1) {
            throw new IllegalArgumentException("need at least one camera and one image per camera, got " + cameras
                    + " x " + imagesPerCamera);
        }
        if (width < 16 || height < 16) {
            throw new IllegalArgumentException("images must be at least 16x16, got " + width + "x" + height);
        }
        if ((long) width * height > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("images too large: " + width + "x" + height);
        }
        if (!(sigmaK >= 0 && sigmaK < 0.5)) {
            throw new IllegalArgumentException("sigmaK must be in [0, 0.5), got " + sigmaK);
        }
        if (quality < 1 || quality > 100) {
            throw new IllegalArgumentException("JPEG quality must be 1..100, got " + quality);
        }
    }

    /** Total number of photos. */
    public int photos() {
        return cameras * imagesPerCamera;
    }
}
