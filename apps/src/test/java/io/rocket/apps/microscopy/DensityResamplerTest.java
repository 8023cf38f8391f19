package io.rocket.apps.microscopy;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class DensityResamplerTest {

    /** 400 points in a tight cluster and 400 spread thinly over a large square. */
    private static Particle clusterAndBackground() {
        SplittableRandom r = new SplittableRandom(5);
        Particle p = new Particle();
        for (int k = 0; k < 400; k++) {
            p.add(r.nextDouble(-5, 5), r.nextDouble(-5, 5), 4);
            p.add(r.nextDouble(-500, 500), r.nextDouble(-500, 500), 4);
        }
        return p;
    }

    @Test
    void resample_aboveTheCap_keepsCapManyPointsPreferringDenseOnes() {
        Particle in = clusterAndBackground();
        Particle out = new Particle();
        new DensityResampler(200, 10).resample(in, out);
        assertThat(out.size()).isEqualTo(200);
        int inCluster = 0;
        for (int k = 0; k < out.size(); k++) {
            inCluster += Math.abs(out.x(k)) <= 5 && Math.abs(out.y(k)) <= 5 ? 1 : 0;
        }
        // Uniform sampling would keep about half from the cluster.
        assertThat(inCluster).isGreaterThan(180);
    }

    @Test
    void resample_isDeterministicAndKeepsSmallParticlesWhole() {
        Particle in = clusterAndBackground();
        Particle a = new Particle();
        Particle b = new Particle();
        new DensityResampler(300, 10).resample(in, a);
        new DensityResampler(300, 10).resample(in, b);
        for (int k = 0; k < a.size(); k++) {
            assertThat(a.x(k)).isEqualTo(b.x(k));
        }
        new DensityResampler(800, 10).resample(in, a);
        assertThat(a.size()).isEqualTo(800);
    }
}
