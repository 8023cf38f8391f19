package io.rocket.bench;

import java.util.SplittableRandom;

/**
 * The benchmark's items: item i is a vector of {@link #DIMENSIONS} floats drawn from a seeded generator, so the
 * runtime and the plain loop compare exactly the same data, and a pair's result is the dot product of two vectors:
 * a cheap function, of the kind whose speed depends on the runtime's per-pair cost rather than on the function.
 */
final class Vectors {
    /** Floats per vector: 256 bytes, a short document's sketch or a small descriptor. */
    static final int DIMENSIONS = 64;

    private Vectors() {
    }

    /** Item {@code i}'s vector, the same on every call. */
    static float[] vector(int i) {
        SplittableRandom random = new SplittableRandom(0x5EEDL + i);
        float[] v = new float[DIMENSIONS];
        for (int d = 0; d < DIMENSIONS; d++) {
            v[d] = (float) random.nextDouble(-1, 1);
        }
        return v;
    }

    /** The dot product, summed in float in index order (as the runtime's kernel sums it). */
    static float dot(float[] a, float[] b) {
        float sum = 0;
        for (int d = 0; d < DIMENSIONS; d++) {
            sum += a[d] * b[d];
        }
        return sum;
    }
}
