package io.rocket.apps.forensics;

/**
 * The two similarity measures between PRNU patterns, each with the cached item it needs and its default decision
 * threshold for clustering.
 *
 * <p>PCE (peak-to-correlation energy) is the usual measure: same-camera pairs score in the hundreds or more, and
 * 60 is the customary decision point; unrelated pairs score about ±1–10 whatever the image size. NCC
 * (normalised cross-correlation) estimates the correlation coefficient of the two patterns: same-camera values
 * depend on fingerprint strength and JPEG quality but not on the image size, while unrelated pairs scatter as
 * ±1/√n. Its default threshold 0.01 was chosen from the synthetic sets (4 cameras × 6 photos, lowest same-camera
 * vs highest cross-camera NCC): 0.070 vs 0.0064 at 512², σ_K = 0.02, Q 85; 0.0143 vs 0.0071 at 512², σ_K = 0.01,
 * Q 75; 0.0168 vs 0.0037 at 1024², σ_K = 0.01, Q 85. It is 5 standard deviations of an unrelated pair at 512²
 * and more for larger images; below ~0.25 Mpixel, or with many thousands of photos at that size, raise it (the
 * NCC equivalent of PCE 60 is about √(60/n), since PCE ≈ n·NCC² for these patterns).
 */
public enum Metric {
    /** Normalised cross-correlation of the patterns (item: {@link PrnuLayout#KIND_PATTERN}). */
    NCC(0.01, PrnuLayout.KIND_PATTERN),
    /** Peak-to-correlation energy (item: {@link PrnuLayout#KIND_SPECTRUM}). */
    PCE(60.0, PrnuLayout.KIND_SPECTRUM);

    private final double defaultThreshold;
    private final int itemKind;

    Metric(double defaultThreshold, int itemKind) {
        this.defaultThreshold = defaultThreshold;
        this.itemKind = itemKind;
    }

    /** The similarity at or above which two photos are taken to come from the same camera. */
    public double defaultThreshold() {
        return defaultThreshold;
    }

    /** The {@link PrnuLayout} kind of the cached item this metric compares. */
    public int itemKind() {
        return itemKind;
    }
}
