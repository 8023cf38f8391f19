package io.rocket.apps.microscopy;

/**
 * A rigid transform of the plane, x ↦ R(θ)x + t (θ in radians, counter-clockwise; t in nm). Used for the
 * generator's true poses (template → particle), for pair registrations (particle i → particle j) and for the
 * absolute poses of fusion (particle → fused frame).
 */
public record Pose(double theta, double tx, double ty) {
    /** The identity. */
    public static final Pose IDENTITY = new Pose(0, 0, 0);

    /** x of the image of (x, y). */
    public double applyX(double x, double y) {
        return Math.cos(theta) * x - Math.sin(theta) * y + tx;
    }

    /** y of the image of (x, y). */
    public double applyY(double x, double y) {
        return Math.sin(theta) * x + Math.cos(theta) * y + ty;
    }

    /** this ∘ other: first {@code other}, then this. */
    public Pose compose(Pose other) {
        return new Pose(Registrar.wrap(theta + other.theta), applyX(other.tx, other.ty),
                applyY(other.tx, other.ty));
    }

    /** The inverse transform. */
    public Pose inverse() {
        double c = Math.cos(theta);
        double s = Math.sin(theta);
        return new Pose(Registrar.wrap(-theta), -(c * tx + s * ty), -(-s * tx + c * ty));
    }
}
