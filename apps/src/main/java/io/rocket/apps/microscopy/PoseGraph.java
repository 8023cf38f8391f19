package io.rocket.apps.microscopy;

/**
 * Absolute poses from pairwise registrations, for fusion. Pose A_k maps particle k into the fused frame, which is
 * the frame of a reference particle (A_ref = identity). A registration T_ij (particle i onto particle j) asks for
 * A_i = A_j ∘ T_ij. The solution is built in two steps:
 *
 * <ol>
 *   <li><b>Spanning tree.</b> The reference is the particle with the largest sum of scores S over its pairs (the
 *       best connected); Prim's algorithm grows a maximum spanning tree over S from it, and each particle's pose is
 *       composed along its tree path. This places every particle with its most trusted registrations.</li>
 *   <li><b>Rotation averaging.</b> {@value #SWEEPS} sweeps over the particles (Gauss–Seidel): every registered
 *       partner l of particle k predicts a pose A_l ∘ T_kl; predictions whose angle is within
 *       {@value #INLIER_DEGREES}° of k's current angle are inliers, and k's new angle is their circular mean and its
 *       translation their mean translation, both weighted by S. Wrong registrations (a few per cent at dol 0.7)
 *       disagree with the consensus by far more than the gate, so they drop out instead of bending the fusion, and
 *       each pose ends up averaging many registrations rather than one tree path.</li>
 * </ol>
 * Particles with no successful registration to the reference's component get no pose.
 */
public final class PoseGraph {
    static final int SWEEPS = 10;
    static final double INLIER_DEGREES = 5.0;

    private PoseGraph() {
    }

    /** The poses (null for particles that could not be placed) and the reference particle. */
    public record Solution(Pose[] poses, int reference) {
    }

    /** Solves for the poses of {@code collector}'s particles. */
    public static Solution solve(RegistrationCollector collector) {
        int n = collector.size();
        double[] strength = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                Registration r = collector.get(i, j);
                if (r != null && r.score() > 0) {
                    strength[i] += r.score();
                    strength[j] += r.score();
                }
            }
        }
        int reference = 0;
        for (int k = 1; k < n; k++) {
            if (strength[k] > strength[reference]) {
                reference = k;
            }
        }
        Pose[] poses = spanningTree(collector, reference);
        average(collector, poses, reference);
        return new Solution(poses, reference);
    }

    /** Pose of k predicted from neighbour l's pose: k → l is T_kl (k &lt; l) or T_lk⁻¹. */
    static Pose predict(RegistrationCollector collector, Pose[] poses, int k, int l) {
        Registration r = k < l ? collector.get(k, l) : collector.get(l, k);
        Pose t = new Pose(r.theta(), r.tx(), r.ty());
        return poses[l].compose(k < l ? t : t.inverse());
    }

    private static double score(RegistrationCollector c, int a, int b) {
        Registration r = a < b ? c.get(a, b) : c.get(b, a);
        return r == null ? Double.NEGATIVE_INFINITY : r.score();
    }

    private static Pose[] spanningTree(RegistrationCollector collector, int reference) {
        int n = collector.size();
        Pose[] poses = new Pose[n];
        double[] best = new double[n];
        int[] via = new int[n];
        java.util.Arrays.fill(best, Double.NEGATIVE_INFINITY);
        java.util.Arrays.fill(via, -1);
        poses[reference] = Pose.IDENTITY;
        int last = reference;
        for (int added = 1; added < n; added++) {
            for (int k = 0; k < n; k++) {
                if (poses[k] == null) {
                    double s = score(collector, k, last);
                    if (s > best[k]) {
                        best[k] = s;
                        via[k] = last;
                    }
                }
            }
            int next = -1;
            for (int k = 0; k < n; k++) {
                if (poses[k] == null && via[k] >= 0 && (next < 0 || best[k] > best[next])) {
                    next = k;
                }
            }
            if (next < 0) {
                break;
            }
            poses[next] = predict(collector, poses, next, via[next]);
            last = next;
        }
        return poses;
    }

    private static void average(RegistrationCollector collector, Pose[] poses, int reference) {
        int n = collector.size();
        double gate = Math.toRadians(INLIER_DEGREES);
        for (int sweep = 0; sweep < SWEEPS; sweep++) {
            for (int k = 0; k < n; k++) {
                if (k == reference || poses[k] == null) {
                    continue;
                }
                double sumSin = 0;
                double sumCos = 0;
                double sumX = 0;
                double sumY = 0;
                double weights = 0;
                for (int l = 0; l < n; l++) {
                    if (l == k || poses[l] == null || score(collector, k, l) <= 0) {
                        continue;
                    }
                    Pose p = predict(collector, poses, k, l);
                    if (Math.abs(Registrar.wrap(p.theta() - poses[k].theta())) > gate) {
                        continue;
                    }
                    double w = score(collector, k, l);
                    sumSin += w * Math.sin(p.theta());
                    sumCos += w * Math.cos(p.theta());
                    sumX += w * p.tx();
                    sumY += w * p.ty();
                    weights += w;
                }
                if (weights > 0) {
                    poses[k] = new Pose(Math.atan2(sumSin, sumCos), sumX / weights, sumY / weights);
                }
            }
        }
    }
}
