package io.rocket.apps.phylogenetics;

import java.util.random.RandomGenerator;

/**
 * Gamma and exponential variates for the synthetic-data generator, written out here so that generated data depend
 * only on the seed and this code (Marsaglia and Tsang 2000 for shape ≥ 1, with the U^(1/shape) boost below 1).
 */
final class RandomVariates {

    private RandomVariates() {
    }

    /** A Gamma(shape, scale) variate (mean shape·scale). */
    static double gamma(RandomGenerator random, double shape, double scale) {
        if (shape <= 0 || scale <= 0) {
            throw new IllegalArgumentException("gamma needs positive shape and scale: " + shape + ", " + scale);
        }
        if (shape < 1) {
            double u = 1.0 - random.nextDouble(); // in (0, 1]
            return gamma(random, shape + 1, scale) * Math.pow(u, 1.0 / shape);
        }
        double d = shape - 1.0 / 3.0;
        double c = 1.0 / Math.sqrt(9.0 * d);
        while (true) {
            double x = random.nextGaussian();
            double v = 1.0 + c * x;
            if (v <= 0) {
                continue;
            }
            v = v * v * v;
            double u = 1.0 - random.nextDouble();
            if (u < 1.0 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1.0 - v + Math.log(v))) {
                return d * v * scale;
            }
        }
    }

    /** An exponential variate with rate {@code rate}. */
    static double exponential(RandomGenerator random, double rate) {
        return -Math.log(1.0 - random.nextDouble()) / rate;
    }
}
