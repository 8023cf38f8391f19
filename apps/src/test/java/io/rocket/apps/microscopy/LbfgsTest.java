package io.rocket.apps.microscopy;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LbfgsTest {

    @Test
    void minimize_rosenbrock_reachesTheMinimum() {
        Lbfgs lbfgs = new Lbfgs(2, 6);
        double[] p = {-1.2, 1.0};
        double value = lbfgs.minimize((q, g) -> {
            double a = 1 - q[0];
            double b = q[1] - q[0] * q[0];
            g[0] = -2 * a - 400 * q[0] * b;
            g[1] = 200 * b;
            return a * a + 100 * b * b;
        }, p, 500, 1e-10, 0, 0.1);
        assertThat(value).isLessThan(1e-12);
        assertThat(p[0]).isCloseTo(1, within(1e-5));
        assertThat(p[1]).isCloseTo(1, within(1e-5));
    }

    @Test
    void minimize_illConditionedQuadratic_convergesInFewIterations() {
        Lbfgs lbfgs = new Lbfgs(3, 6);
        double[] p = {5, -3, 2};
        double[] scales = {1, 30, 0.1};
        lbfgs.minimize((q, g) -> {
            double f = 0;
            for (int k = 0; k < 3; k++) {
                double d = q[k] - k;
                f += scales[k] * d * d;
                g[k] = 2 * scales[k] * d;
            }
            return f;
        }, p, 100, 1e-9, 0, 1);
        for (int k = 0; k < 3; k++) {
            assertThat(p[k]).isCloseTo(k, within(1e-6));
        }
        assertThat(lbfgs.iterations()).isLessThan(40);
    }
}
