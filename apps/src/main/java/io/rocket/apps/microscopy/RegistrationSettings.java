package io.rocket.apps.microscopy;

/**
 * What every node of a run must agree on to register particles alike: the GMM scale s (nm), the number of
 * starting angles, and the cap on localizations per particle (which also fixes the slot size).
 */
public record RegistrationSettings(double scale, int starts, int maxPoints) {
    /** Default scale s (nm): of the order of the localization precision and of the 5–10 nm site spacing. */
    public static final double DEFAULT_SCALE = 10.0;
    /** Default number of starting angles (22.5° apart; they run on binned particles, so they are cheap). */
    public static final int DEFAULT_STARTS = 16;
    /** Default cap on localizations per particle. */
    public static final int DEFAULT_MAX_POINTS = 5000;

    public RegistrationSettings {
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("--scale must be a positive number of nm, got " + scale);
        }
        if (starts < 1 || starts > 360) {
            throw new IllegalArgumentException("--starts must be between 1 and 360, got " + starts);
        }
        if (maxPoints < 1 || maxPoints > 1_000_000) {
            throw new IllegalArgumentException("--max-points must be between 1 and 1000000, got " + maxPoints);
        }
    }

    /** The defaults. */
    public static RegistrationSettings defaults() {
        return new RegistrationSettings(DEFAULT_SCALE, DEFAULT_STARTS, DEFAULT_MAX_POINTS);
    }

    /** Bytes of one particle slot. */
    public long slotBytes() {
        return ParticleSlot.bytes(maxPoints);
    }
}
