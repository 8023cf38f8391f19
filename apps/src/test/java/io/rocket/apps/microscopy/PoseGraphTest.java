package io.rocket.apps.microscopy;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class PoseGraphTest {

    @Test
    void solve_consistentRegistrationsWithOutliers_recoversTheRelativePoses() {
        int n = 10;
        SplittableRandom r = new SplittableRandom(9);
        Pose[] truth = new Pose[n];
        for (int k = 0; k < n; k++) {
            truth[k] = new Pose(r.nextDouble(-Math.PI, Math.PI), r.nextDouble(-5, 5), r.nextDouble(-5, 5));
        }
        RegistrationCollector c = new RegistrationCollector(n);
        Path key = Path.of("p");
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                Pose t = truth[j].compose(truth[i].inverse());
                double noise = r.nextDouble(-0.01, 0.01);
                boolean outlier = (i + j) % 7 == 0;
                double theta = outlier ? t.theta() + 2.0 : t.theta() + noise;
                c.accept(i, j, key, key, new Registration(outlier ? 50 : 100, t.tx(), t.ty(), theta));
            }
        }
        PoseGraph.Solution s = PoseGraph.solve(c);
        Pose ref = truth[s.reference()];
        for (int k = 0; k < n; k++) {
            // Particle k into the reference frame: G_ref ∘ G_k⁻¹.
            Pose expected = ref.compose(truth[k].inverse());
            assertThat(Math.toDegrees(Registrar.wrap(s.poses()[k].theta() - expected.theta())))
                    .as("particle %d", k).isCloseTo(0, within(1.0));
            assertThat(s.poses()[k].tx()).isCloseTo(expected.tx(), within(1.0));
            assertThat(s.poses()[k].ty()).isCloseTo(expected.ty(), within(1.0));
        }
    }

    @Test
    void solve_particleWithoutRegistrations_isNotPlaced() {
        RegistrationCollector c = new RegistrationCollector(3);
        Path key = Path.of("p");
        c.accept(0, 1, key, key, new Registration(10, 1, 2, 0.5));
        PoseGraph.Solution s = PoseGraph.solve(c);
        assertThat(s.poses()[2]).isNull();
        assertThat(s.poses()[0]).isNotNull();
        assertThat(s.poses()[1]).isNotNull();
    }
}
