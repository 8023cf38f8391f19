package io.rocket.apps.microscopy;

import java.nio.ByteBuffer;

/**
 * The binary layout of one particle in a host or device buffer, shared by the parser, the cpu kernels and
 * {@code microscopy.cu}: six little-endian doubles of header, then the centred coordinates and variances as three
 * arrays (structure of arrays, so a GPU warp reads consecutive points), then the particle binned for the two coarse
 * stages of {@link Registrar} ({@link BinnedPoints} on cells of {@link Registrar#CELL_FACTOR}·s and
 * {@link Registrar#FINE_CELL_FACTOR}·s), also as arrays.
 *
 * <pre>
 * double 0   n      number of localizations (a double, exact for any count that fits)
 * double 1   cx     centroid x of the particle in its file's coordinates (nm)
 * double 2   cy     centroid y (nm)
 * double 3   rms    root-mean-square distance of the localizations from the centroid (nm)
 * double 4   kc     number of coarse components (at most n)
 * double 5   kf     number of fine components (at most n)
 * double 6   x[n]   x − cx (nm), then y[n] = y − cy (nm), then s2[n] = σ² (nm²)
 * then       the coarse components' x[kc], y[kc] (centred, nm) and w[kc] (localizations), then the fine ones'
 * </pre>
 *
 * Binning once at parse rather than per pair is what lets the coarse stages run on a GPU: the device has the bins
 * without a host round trip, and the cpu kernels read the very same components.
 *
 * Centring lets registration start every optimisation at t = 0 with the two centroids on top of each other, and
 * makes rotations turn a particle about its centre; {@link Registrar} turns the result back into file coordinates.
 */
public final class ParticleSlot {
    /** Header size in bytes (six doubles). */
    public static final int HEADER_BYTES = 48;
    /** Header size in doubles: where the x array starts. */
    public static final int HEADER_DOUBLES = HEADER_BYTES / Double.BYTES;

    private ParticleSlot() {
    }

    /** Bytes a particle of {@code points} localizations takes at most (its bins take at most 6 doubles a point). */
    public static long bytes(int points) {
        return HEADER_BYTES + 9L * Double.BYTES * points;
    }

    /** Offset in doubles of the coarse components of a slot with n localizations. */
    static int coarseOffset(int n) {
        return HEADER_DOUBLES + 3 * n;
    }

    /** Offset in doubles of the fine components of a slot with n localizations and kc coarse components. */
    static int fineOffset(int n, int kc) {
        return coarseOffset(n) + 3 * kc;
    }

    /** The number of localizations of the particle in {@code slot} (little-endian, at index 0). */
    public static int count(ByteBuffer slot) {
        return (int) slot.getDouble(0);
    }

    /**
     * Writes {@code particle}, centred and binned for the GMM scale {@code scale}, into {@code slot} from index 0.
     *
     * @param scale the run's GMM scale s (nm), {@link RegistrationSettings#scale()}
     * @return the bytes written
     * @throws IllegalArgumentException when the slot is too small (the caller sizes slots from the point cap)
     */
    public static long write(Particle particle, ByteBuffer slot, double scale) {
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
        // The bins, from the centred coordinates just written (exactly the values the kernels read back).
        double[] px = new double[n];
        double[] py = new double[n];
        for (int k = 0; k < n; k++) {
            px[k] = slot.getDouble(xs + k * Double.BYTES);
            py[k] = slot.getDouble(ys + k * Double.BYTES);
        }
        BinnedPoints bins = new BinnedPoints(Math.max(1, n));
        bins.bin(px, py, n, scale * Registrar.CELL_FACTOR);
        int kc = bins.n;
        bins.write(slot, coarseOffset(n));
        bins.bin(px, py, n, scale * Registrar.FINE_CELL_FACTOR);
        bins.write(slot, fineOffset(n, kc));
        slot.putDouble(32, kc);
        slot.putDouble(40, bins.n);
        return (long) Double.BYTES * (fineOffset(n, kc) + 3 * bins.n);
    }
}
