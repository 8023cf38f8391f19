package io.rocket.apps.microscopy;

import java.util.Locale;

/**
 * The result of registering pair (i, j): the rigid transform T(x) = R(θ)x + t that maps particle i (the model,
 * the left key) onto particle j (the scene, the right key), in each particle's own file coordinates (nm), and the
 * Bhattacharyya score S of that alignment (higher is better). θ is in radians, in (−π, π], counter-clockwise.
 */
public record Registration(double score, double tx, double ty, double theta) {

    /** Bytes of a result buffer: four little-endian doubles in this order. */
    public static final int BYTES = 4 * Double.BYTES;

    /** The TSV columns after {@code i j left right}. */
    public static final String COLUMNS = "score\ttx\tty\ttheta";

    /**
     * Turns a transform found between the centred particles ({@code result} = S, t′x, t′y, θ) into file
     * coordinates, in place: with centroids c_i, c_j, x ↦ R(θ)(x − c_i) + c_j + t′ is x ↦ R(θ)x + (c_j + t′ − R(θ)c_i).
     */
    static void toFileCoordinates(double[] result, double cxModel, double cyModel, double cxScene, double cyScene) {
        double c = Math.cos(result[3]);
        double s = Math.sin(result[3]);
        result[1] = cxScene + result[1] - (c * cxModel - s * cyModel);
        result[2] = cyScene + result[2] - (s * cxModel + c * cyModel);
    }

    /** Reads the four doubles of a result buffer (little-endian, absolute). */
    static Registration read(java.nio.ByteBuffer buffer) {
        return new Registration(buffer.getDouble(0), buffer.getDouble(8), buffer.getDouble(16), buffer.getDouble(24));
    }

    /** θ in degrees. */
    public double thetaDegrees() {
        return Math.toDegrees(theta);
    }

    /** The TSV columns: score (full precision), tx and ty in nm, θ in degrees. */
    public String toTsv() {
        return String.format(Locale.ROOT, "%s\t%.6f\t%.6f\t%.6f", score, tx, ty, thetaDegrees());
    }
}
