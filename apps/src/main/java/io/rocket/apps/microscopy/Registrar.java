package io.rocket.apps.microscopy;

/**
 * The optimiser's control loop for one pair (apps.md §3): maximise the GMM-L2 cost C(t, θ) with L-BFGS from
 * {@code starts} evenly spaced angles θ_k = 2πk/starts (t = 0, centroids on top of each other), score each optimum
 * with the Bhattacharyya cross term S, and keep the start with the highest S. Runs on the device's kernel thread;
 * every evaluation goes through a {@link PairEvaluator}, so the same loop drives cpu and CUDA kernels.
 *
 * <p>Each start runs in two stages, coarse to fine: first at scale {@value #COARSE_FACTOR}·s, whose smoother cost
 * has basins wide enough that starts 45° apart reach the right one, then at s from where the coarse stage ended,
 * for precision (on 16 generated pairs at dol 0.7 with s = 10 nm: 13 within 3° with one stage, 14 with two stages
 * at 2s then s, 13 with 3s then s; the misses end in a wrong optimum whose cost and score are below the true
 * alignment's). In each stage L-BFGS works on dimensionless parameters
 * p = (tx/σ, ty/σ, θ·L/σ), σ the stage's scale and L = max(rms radius of the model, 2s) the lever arm: a unit
 * change of any parameter moves the model's points by about one scale, which keeps the problem well conditioned,
 * and it minimises −C/C(stage start), so its tolerances do not depend on the particles' sizes.
 * One instance per device workspace; not thread-safe.
 */
final class Registrar {
    /** Largest number of accepted L-BFGS steps per start. */
    static final int MAX_ITERATIONS = 60;
    private static final double GRADIENT_TOLERANCE = 1e-5;
    private static final double VALUE_TOLERANCE = 1e-9;
    /** The first step moves points by half a scale. */
    private static final double FIRST_STEP = 0.5;
    /** The coarse stage's scale, as a multiple of s. */
    static final double COARSE_FACTOR = 2.0;

    private final int starts;
    private final double scale;
    private final Lbfgs lbfgs = new Lbfgs(3, 6);
    private final double[] p = new double[3];
    private final double[] gradient = new double[3];
    private final Lbfgs.Objective objective = this::objective;
    // The pair being registered (set per call; fields, so the objective is not a new lambda per pair).
    private PairEvaluator evaluator;
    private double lever;
    private double normaliser;
    /** The scale of the current stage. */
    private double current;
    private int evaluations;

    /**
     * @param starts number of starting angles (at least 1)
     * @param scale  GMM scale s (nm)
     */
    Registrar(int starts, double scale) {
        if (starts < 1) {
            throw new IllegalArgumentException("starts must be at least 1, got " + starts);
        }
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("scale must be a positive number, got " + scale);
        }
        this.starts = starts;
        this.scale = scale;
    }

    /** Cost evaluations of the last {@link #register} call, over all starts. */
    int evaluations() {
        return evaluations;
    }

    /**
     * Registers the loaded pair.
     *
     * @param modelRms rms radius of the model particle (nm)
     * @param best     receives the best start's S, tx, ty (nm) and θ (radians, in (−π, π]), centred coordinates
     */
    void register(PairEvaluator pair, double modelRms, double[] best) {
        evaluator = pair;
        lever = Math.max(modelRms, scale * COARSE_FACTOR);
        evaluations = 0;
        best[0] = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < starts; k++) {
            double theta0 = 2 * Math.PI * k / starts;
            p[0] = 0;
            p[1] = 0;
            // Coarse to fine: a wide basin first, then the requested scale from where it ended.
            for (int stage = 0; stage < 2; stage++) {
                current = stage == 0 ? scale * COARSE_FACTOR : scale;
                p[0] = p[0] * (stage == 0 ? 1 : COARSE_FACTOR);
                p[1] = p[1] * (stage == 0 ? 1 : COARSE_FACTOR);
                if (stage == 0) {
                    p[2] = theta0 * lever / current;
                } else {
                    p[2] = p[2] * COARSE_FACTOR;
                }
                double c0 = pair.cost(p[0] * current, p[1] * current, p[2] * current / lever, current, gradient);
                evaluations++;
                if (c0 > 0) {
                    normaliser = 1.0 / c0;
                    lbfgs.minimize(objective, p, MAX_ITERATIONS, GRADIENT_TOLERANCE, VALUE_TOLERANCE, FIRST_STEP);
                    evaluations += lbfgs.evaluations();
                }
            }
            double tx = p[0] * scale;
            double ty = p[1] * scale;
            double theta = p[2] * scale / lever;
            double score = pair.score(tx, ty, theta);
            if (score > best[0]) {
                best[0] = score;
                best[1] = tx;
                best[2] = ty;
                best[3] = wrap(theta);
            }
        }
        evaluator = null;
    }

    private double objective(double[] q, double[] g) {
        double c = evaluator.cost(q[0] * current, q[1] * current, q[2] * current / lever, current, g);
        g[0] *= -normaliser * current;
        g[1] *= -normaliser * current;
        g[2] *= -normaliser * current / lever;
        return -c * normaliser;
    }

    /** θ reduced to (−π, π]. */
    static double wrap(double theta) {
        double t = Math.IEEEremainder(theta, 2 * Math.PI);
        return t <= -Math.PI ? t + 2 * Math.PI : t;
    }
}
