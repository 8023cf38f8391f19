package io.rocket.apps.microscopy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class GmmKernelsTest {

    private static PointSet random(int n, double spread, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Particle p = new Particle();
        for (int k = 0; k < n; k++) {
            p.add(r.nextDouble(-spread, spread), r.nextDouble(-spread, spread), r.nextDouble(3, 10));
        }
        return Particles.points(p);
    }

    @ParameterizedTest
    @CsvSource({"0, 0, 0, 10", "3.5, -2, 0.7, 10", "-8, 5, -2.9, 6", "1, 1, 3.1, 15"})
    void gradient_matchesCentralDifferences(double tx, double ty, double theta, double scale) {
        PointSet model = random(60, 30, 1);
        PointSet scene = random(45, 30, 2);
        double[] g = new double[3];
        double c = GmmKernels.costAndGradient(model, scene, tx, ty, theta, scale, g);
        assertThat(c).isPositive();
        double[] unused = new double[3];
        double[] steps = {1e-5, 1e-5, 1e-7};
        double[] numeric = new double[3];
        for (int k = 0; k < 3; k++) {
            double[] plus = {tx, ty, theta};
            double[] minus = {tx, ty, theta};
            plus[k] += steps[k];
            minus[k] -= steps[k];
            numeric[k] = (GmmKernels.costAndGradient(model, scene, plus[0], plus[1], plus[2], scale, unused)
                    - GmmKernels.costAndGradient(model, scene, minus[0], minus[1], minus[2], scale, unused))
                    / (2 * steps[k]);
        }
        double norm = Math.sqrt(numeric[0] * numeric[0] + numeric[1] * numeric[1] + numeric[2] * numeric[2]);
        for (int k = 0; k < 3; k++) {
            assertThat(g[k]).as("component %d", k).isCloseTo(numeric[k], within(1e-6 * norm));
        }
    }

    @Test
    void cost_ofTwoSinglePoints_isTheGaussianOfTheirDistance() {
        // Centred single points sit at the origin; t = (3, 4) puts them 5 nm apart: exp(−25/100).
        PointSet model = Particles.points(Particles.of(new double[]{7, 7, 2}));
        PointSet scene = Particles.points(Particles.of(new double[]{-1, 2, 3}));
        double[] g = new double[3];
        double c = GmmKernels.costAndGradient(model, scene, 3, 4, 1.0, 10, g);
        assertThat(c).isCloseTo(Math.exp(-0.25), within(1e-15));
        // dC/dt = −2/s² · e · d.
        assertThat(g[0]).isCloseTo(-0.02 * Math.exp(-0.25) * 3, within(1e-15));
        assertThat(g[1]).isCloseTo(-0.02 * Math.exp(-0.25) * 4, within(1e-15));
        assertThat(g[2]).isCloseTo(0, within(1e-15));
    }

    @Test
    void score_ofSmallSets_matchesHandComputedSums() {
        // Model: (−1, 0) σ=1 and (1, 0) σ=2 (already centred). Scene: (0, 0) σ=1 only (centred).
        PointSet model = Particles.points(Particles.of(new double[]{-1, 0, 1}, new double[]{1, 0, 2}));
        PointSet scene = Particles.points(Particles.of(new double[]{5, 5, 1}));
        // Identity: distances 1 and 1; σ² sums 2 and 5.
        assertThat(GmmKernels.score(model, scene, 0, 0, 0))
                .isCloseTo(Math.exp(-1.0 / 2) + Math.exp(-1.0 / 5), within(1e-15));
        // θ = 90° turns the model to (0, −1), (0, 1); t = (0, 1) gives (0, 0) and (0, 2): distances 0 and 2.
        assertThat(GmmKernels.score(model, scene, 0, 1, Math.PI / 2))
                .isCloseTo(1 + Math.exp(-4.0 / 5), within(1e-14));
    }

    @Test
    void score_isLargestAtTheTrueAlignment() {
        Particle p = Particles.draw(new Pose(0.4, 1, 2), 1.0, 10, 3);
        Pose move = new Pose(1.1, 6, -4);
        PointSet model = Particles.points(p);
        PointSet scene = Particles.points(Particles.transformed(p, move));
        double aligned = GmmKernels.score(model, scene, 0, 0, move.theta());
        assertThat(aligned).isGreaterThan(GmmKernels.score(model, scene, 0, 0, move.theta() + 0.1));
        assertThat(aligned).isGreaterThan(GmmKernels.score(model, scene, 2, 0, move.theta()));
    }

    private static BinnedPoints binned(PointSet points, double cell) {
        BinnedPoints b = new BinnedPoints(points.n);
        b.bin(points.x, points.y, points.n, cell);
        return b;
    }

    @Test
    void binnedCost_withOnePointPerCell_equalsTheFullCost() {
        PointSet model = random(60, 30, 1);
        PointSet scene = random(45, 30, 2);
        // Cells of 1e-6 nm: every point alone in its cell, weight 1, at its own position.
        BinnedPoints m = binned(model, 1e-6);
        BinnedPoints s = binned(scene, 1e-6);
        assertThat(m.n).isEqualTo(60);
        assertThat(s.n).isEqualTo(45);
        double[] g = new double[3];
        double[] h = new double[3];
        double full = GmmKernels.costAndGradient(model, scene, 2, -1, 0.6, 10, g);
        double reduced = GmmKernels.costAndGradient(m, s, 2, -1, 0.6, 10, h);
        assertThat(reduced).isCloseTo(full, within(1e-12 * full));
        for (int k = 0; k < 3; k++) {
            assertThat(h[k]).isCloseTo(g[k], within(1e-10 * Math.abs(g[k])));
        }
    }

    @Test
    void binning_keepsEveryPointOnceAndPutsComponentsAtCellCentroids() {
        PointSet points = Particles.points(Particles.draw(new Pose(0.2, 0, 0), 0.7, 30, 5));
        BinnedPoints b = binned(points, 10);
        assertThat(b.n).isBetween(2, points.n - 1);
        double weight = 0;
        double mx = 0;
        double my = 0;
        for (int k = 0; k < b.n; k++) {
            weight += b.w[k];
            mx += b.w[k] * b.x[k];
            my += b.w[k] * b.y[k];
        }
        assertThat(weight).isEqualTo(points.n).isEqualTo(b.total);
        // The points are centred, so the weighted mean of the components is the origin.
        assertThat(mx / weight).isCloseTo(0, within(1e-9));
        assertThat(my / weight).isCloseTo(0, within(1e-9));
    }

    @ParameterizedTest
    @CsvSource({"0, 0, 0, 20", "3.5, -2, 0.7, 10"})
    void binnedGradient_matchesCentralDifferences(double tx, double ty, double theta, double scale) {
        BinnedPoints model = binned(random(200, 40, 3), 8);
        BinnedPoints scene = binned(random(150, 40, 4), 8);
        double[] g = new double[3];
        double[] unused = new double[3];
        GmmKernels.costAndGradient(model, scene, tx, ty, theta, scale, g);
        double[] steps = {1e-5, 1e-5, 1e-7};
        double[] numeric = new double[3];
        for (int k = 0; k < 3; k++) {
            double[] plus = {tx, ty, theta};
            double[] minus = {tx, ty, theta};
            plus[k] += steps[k];
            minus[k] -= steps[k];
            numeric[k] = (GmmKernels.costAndGradient(model, scene, plus[0], plus[1], plus[2], scale, unused)
                    - GmmKernels.costAndGradient(model, scene, minus[0], minus[1], minus[2], scale, unused))
                    / (2 * steps[k]);
        }
        double norm = Math.sqrt(numeric[0] * numeric[0] + numeric[1] * numeric[1] + numeric[2] * numeric[2]);
        for (int k = 0; k < 3; k++) {
            assertThat(g[k]).as("component %d", k).isCloseTo(numeric[k], within(1e-6 * norm));
        }
    }
}
