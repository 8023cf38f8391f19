package io.rocket.apps.microscopy;

/** A particle file that cannot be used: malformed JSON or CSV, no localizations, a NaN, or a non-positive σ. */
public final class ParticleFormatException extends Exception {
    public ParticleFormatException(String message) {
        super(message);
    }

    public ParticleFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
