package io.rocket.apps.microscopy;

/**
 * The optimiser's control loop for one pair (apps.md §3): maximise the GMM-L2 cost C(t, θ) with L-BFGS from
 * {@code starts} evenly spaced angles θ_k = 2πk/starts (t = 0, centroids on top of each other), score the best
 * optima with the Bhattacharyya cross term S, and keep the one with the highest S. Runs on the device's kernel
 * thread; the full-resolution evaluations go through a {@link PairEvaluator}, so the same loop drives cpu and CUDA
 * kernels.
 *
 * <p>Three stages, coarse to fine, most of the search on few components ({@link BinnedPoints}):
 * <ol>
 *   <li>every start at scale {@value #COARSE_FACTOR}·s, whose smoother cost has wide basins, on the two particles
 *       binned on cells of {@value #CELL_FACTOR}·s (about 100 components instead of 1,300 localizations);</li>
 *   <li>the best {@value #MIDDLE} coarse optima, distinct in angle, at s on cells of {@value #FINE_CELL_FACTOR}·s
 *       (about 280 components);
 *       ranking by C at s here, not at 2s, is what keeps the true alignment among the finalists;</li>
 *   <li>the best {@value #REFINED} of those at s on the full point sets, each scored with S.</li>
 * </ol>
 * On generated particles at dol 0.7 almost every pair left wrong is one where no start reached the true basin or
 * where S itself prefers the wrong optimum. In each stage L-BFGS works on dimensionless parameters
 * p = (tx/σ, ty/σ, θ·L/σ), σ the stage's scale and L = max(rms radius of the model, 2s) the lever arm: a unit
 * change of any parameter moves the model's points by about one scale, which keeps the problem well conditioned,
 * and it minimises −C/C(stage start), so its tolerances do not depend on the particles' sizes.
 * One instance per device workspace; not thread-safe; allocation-free after construction.
 */
final class Registrar {
    /** Largest number of accepted L-BFGS steps per stage. */
    static final int MAX_ITERATIONS = 60;
    private static final double GRADIENT_TOLERANCE = 1e-5;
    private static final double VALUE_TOLERANCE = 1e-9;
    /** The first step moves points by half a scale. */
    private static final double FIRST_STEP = 0.5;
    /** The coarse stage's scale, as a multiple of s. */
    static final double COARSE_FACTOR = 2.0;
    /** The coarse stage's grid cell, as a multiple of s. */
    static final double CELL_FACTOR = 2.0;
    /** The middle stage's grid cell, as a multiple of s. */
    static final double FINE_CELL_FACTOR = 1.0;
    /** Distinct coarse optima taken to the middle stage. */
    static final int MIDDLE = 12;
    /** Middle-stage optima refined at full resolution. */
    static final int REFINED = 2;
    /** Coarse optima closer than this in angle (radians) are the same optimum. */
    static final double DISTINCT = Math.toRadians(4);

    private final int starts;
    private final double scale;
    private final Lbfgs lbfgs = new Lbfgs(3, 6);
    private final double[] p = new double[3];
    private final double[] gradient = new double[3];
    private final Lbfgs.Objective objective = this::objective;
    private final BinnedPoints binnedModel;
    private final BinnedPoints binnedScene;
    private final BinnedPoints fineModel;
    private final BinnedPoints fineScene;
    private BinnedPoints stageModel;
    private BinnedPoints stageScene;
    /** The coarse optima: tx, ty (nm), θ (radians) and cost, one row per start. */
    private final double[][] optima;
    private final Integer[] order;
    private final int[] chosen;
    private final java.util.Comparator<Integer> byCost;
    // The pair being registered (set per call; fields, so the objective is not a new lambda per pair).
    private PairEvaluator evaluator;
    /** Whether the current stage works on the binned sets. */
    private boolean binned;
    private double lever;
    private double normaliser;
    /** The scale of the current stage. */
    private double current;
    private int evaluations;
    private int fullEvaluations;

    /**
     * @param starts    number of starting angles (at least 1)
     * @param scale     GMM scale s (nm)
     * @param maxPoints largest particle (localizations)
     */
    Registrar(int starts, double scale, int maxPoints) {
        if (starts < 1) {
            throw new IllegalArgumentException("starts must be at least 1, got " + starts);
        }
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("scale must be a positive number, got " + scale);
        }
        this.starts = starts;
        this.scale = scale;
        binnedModel = new BinnedPoints(maxPoints);
        binnedScene = new BinnedPoints(maxPoints);
        fineModel = new BinnedPoints(maxPoints);
        fineScene = new BinnedPoints(maxPoints);
        optima = new double[starts][4];
        order = new Integer[starts];
        chosen = new int[starts];
        byCost = (a, b) -> Double.compare(optima[b][3], optima[a][3]);
    }

    /** Cost evaluations of the last {@link #register} call, over all starts and stages. */
    int evaluations() {
        return evaluations;
    }

    /** Of {@link #evaluations()}, those on the full point sets (the rest ran on the binned sets). */
    int fullEvaluations() {
        return fullEvaluations;
    }

    /**
     * Registers the loaded pair.
     *
     * @param pair  the device's sums over the full point sets
     * @param model the model's centred points, on the host (x, y, n and rms are read)
     * @param scene the scene's centred points, on the host (x, y and n are read)
     * @param best  receives the best start's S, tx, ty (nm) and θ (radians, in (−π, π]), centred coordinates
     */
    void register(PairEvaluator pair, PointSet model, PointSet scene, double[] best) {
        evaluator = pair;
        lever = Math.max(model.rms, scale * COARSE_FACTOR);
        evaluations = 0;
        fullEvaluations = 0;
        best[0] = Double.NEGATIVE_INFINITY;
        binnedModel.bin(model.x, model.y, model.n, scale * CELL_FACTOR);
        binnedScene.bin(scene.x, scene.y, scene.n, scale * CELL_FACTOR);
        fineModel.bin(model.x, model.y, model.n, scale * FINE_CELL_FACTOR);
        fineScene.bin(scene.x, scene.y, scene.n, scale * FINE_CELL_FACTOR);
        stageModel = binnedModel;
        stageScene = binnedScene;
        // Stage 1: every start on the binned sets at the coarse scale.
        binned = true;
        current = scale * COARSE_FACTOR;
        for (int k = 0; k < starts; k++) {
            p[0] = 0;
            p[1] = 0;
            p[2] = 2 * Math.PI * k / starts * lever / current;
            double value = optimise();
            save(optima[k], value);
            order[k] = k;
        }
        int picked = pickDistinct(MIDDLE);
        // Stage 2: the distinct coarse optima at s on the finer bins.
        stageModel = fineModel;
        stageScene = fineScene;
        current = scale;
        for (int q = 0; q < picked; q++) {
            double[] o = optima[chosen[q]];
            startAt(o);
            save(o, optimise());
        }
        for (int k = 0; k < starts; k++) {
            order[k] = k;
            if (!contains(chosen, picked, k)) {
                optima[k][3] = Double.NEGATIVE_INFINITY;
            }
        }
        picked = pickDistinct(REFINED);
        // Stage 3: the best distinct middle optima at s on the full sets, each scored.
        binned = false;
        current = scale;
        for (int q = 0; q < picked; q++) {
            startAt(optima[chosen[q]]);
            optimise();
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

    private static boolean contains(int[] a, int count, int v) {
        for (int k = 0; k < count; k++) {
            if (a[k] == v) {
                return true;
            }
        }
        return false;
    }

    /** Sorts the optima by cost, best first, and puts up to {@code most} of them, distinct in angle, in chosen. */
    private int pickDistinct(int most) {
        java.util.Arrays.sort(order, byCost);
        int picked = 0;
        for (int r = 0; r < starts && picked < most; r++) {
            double[] o = optima[order[r]];
            if (o[3] == Double.NEGATIVE_INFINITY) {
                break;
            }
            boolean seen = false;
            for (int q = 0; q < picked && !seen; q++) {
                seen = Math.abs(wrap(o[2] - optima[chosen[q]][2])) < DISTINCT;
            }
            if (!seen) {
                chosen[picked++] = order[r];
            }
        }
        return picked;
    }

    /** Sets p to the pose (tx, ty, θ) of optimum {@code o} at the current stage's scale. */
    private void startAt(double[] o) {
        p[0] = o[0] / current;
        p[1] = o[1] / current;
        p[2] = o[2] * lever / current;
    }

    /** Saves p as the pose (tx, ty, θ) of optimum {@code o}, with the cost it reached. */
    private void save(double[] o, double value) {
        o[0] = p[0] * current;
        o[1] = p[1] * current;
        o[2] = p[2] * current / lever;
        o[3] = value;
    }

    /** L-BFGS from p at the current stage; returns C at the end (0 when C vanished at the start). */
    private double optimise() {
        double c0 = cost(p[0] * current, p[1] * current, p[2] * current / lever, gradient);
        if (!(c0 > 0)) {
            return 0;
        }
        normaliser = 1.0 / c0;
        double value = lbfgs.minimize(objective, p, MAX_ITERATIONS, GRADIENT_TOLERANCE, VALUE_TOLERANCE,
                FIRST_STEP);
        return -value * c0;
    }

    private double cost(double tx, double ty, double theta, double[] g) {
        evaluations++;
        if (binned) {
            return GmmKernels.costAndGradient(stageModel, stageScene, tx, ty, theta, current, g);
        }
        fullEvaluations++;
        return evaluator.cost(tx, ty, theta, current, g);
    }

    private double objective(double[] q, double[] g) {
        double c = cost(q[0] * current, q[1] * current, q[2] * current / lever, g);
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
