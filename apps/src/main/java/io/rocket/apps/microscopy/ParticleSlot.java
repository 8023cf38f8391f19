package io.rocket.apps.microscopy;

import java.nio.ByteBuffer;

/**
 * The binary layout of one particle in a host or device buffer, shared by the parser, the cpu kernels and
 * {@code microscopy.cu}: four little-endian doubles of header, then the centred coordinates and variances as three
 * arrays (structure of arrays, so a GPU warp reads consecutive points).
 *
 * <pre>
 * byte 0   n      number of localizations (a double, exact for any count that fits)
 * byte 8   cx     centroid x of the particle in its file's coordinates (nm)
 * byte 16  cy     centroid y (nm)
 * byte 24  rms    root-mean-square distance of the localizations from the centroid (nm)
 * byte 32  x[n]   x − cx (nm), then y[n] = y − cy (nm), then s2[n] = σ² (nm²)
 * </pre>
 *
 * Centring lets registration start every optimisation at t = 0 with the two centroids on top of each other, and
 * makes rotations turn a particle about its centre; {@link Registrar} turns the result back into file coordinates.
 */
public final class ParticleSlot {
    /** Header size in bytes (four doubles). */
    public static final int HEADER_BYTES = 32;
    /** Header size in doubles: where the x array starts. */
    public static final int HEADER_DOUBLES = HEADER_BYTES / Double.BYTES;

    private ParticleSlot() {
    }

    /** Bytes a particle of {@code points} localizations takes. */
    public static long bytes(int points) {
        return HEADER_BYTES + 3L * Double.BYTES * points;
    }

    /** The number of localizations of the particle in {@code slot} (little-endian, at index 0). */
    public static int count(ByteBuffer slot) {
        return (int) slot.getDouble(0);
    }

    /**
     * Writes {@code particle}, centred, into {@code slot} from index 0.
     *
     * @return the bytes written
     * @throws IllegalArgumentException when the slot is too small (the caller sizes slots from the point cap)
     */
    public static long write(Particle particle, ByteBuffer slot) {
        int n = particle.size();
        long bytes = bytes(n);
        if (bytes > slot.capacity()) {
            throw new IllegalArgumentException("a particle of " + n + " localizations needs " + bytes
                    + " bytes but the buffer holds " + slot.capacity());
        }
        double cx = 0;
        double cy = 0;
        for (int k = 0; k < n; k++) {
            cx += particle.x(k);
            cy += particle.y(k);
        }
        cx /= n;
        cy /= n;
        double sumSquares = 0;
        int xs = HEADER_BYTES;
        int ys = xs + n * Double.BYTES;
        int ss = ys + n * Double.BYTES;
        for (int k = 0; k < n; k++) {
            double dx = particle.x(k) - cx;
            double dy = particle.y(k) - cy;
            double sigma = particle.sigma(k);
            sumSquares += dx * dx + dy * dy;
            slot.putDouble(xs + k * Double.BYTES, dx);
            slot.putDouble(ys + k * Double.BYTES, dy);
            slot.putDouble(ss + k * Double.BYTES, sigma * sigma);
        }
        slot.putDouble(0, n);
        slot.putDouble(8, cx);
        slot.putDouble(16, cy);
        slot.putDouble(24, Math.sqrt(sumSquares / n));
        return bytes;
    }
}
