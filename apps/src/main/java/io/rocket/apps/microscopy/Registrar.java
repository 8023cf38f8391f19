package io.rocket.apps.microscopy;

/**
 * The optimiser's control loop for one pair (apps.md §3): maximise the GMM-L2 cost C(t, θ) with L-BFGS from
 * {@code starts} evenly spaced angles θ_k = 2πk/starts (t = 0, centroids on top of each other), score the best
 * optima with the Bhattacharyya cross term S, and keep the one with the highest S. Runs on the device's kernel
 * thread; every evaluation goes through a {@link PairEvaluator}, so the same loop drives cpu and CUDA kernels.
 * Within a stage the starts are stepped together: each round hands the evaluator the next pose of every start still
 * running, one batch (one kernel launch and one small read-back on a GPU), and each start's L-BFGS run takes exactly
 * the steps it would take alone, so the registration does not depend on the batching.
 *
 * <p>Three stages, coarse to fine, most of the search on few components ({@link BinnedPoints}):
 * <ol>
 *   <li>every start at scale {@value #COARSE_FACTOR}·s, whose smoother cost has wide basins, on the two particles
 *       binned on cells of {@value #CELL_FACTOR}·s (about 100 components instead of 1,300 localizations; parse
 *       binned them into the {@link ParticleSlot});</li>
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
    /** One L-BFGS run per start: a stage steps all of its starts together, one batch of poses per round. */
    private final Lbfgs[] runs;
    /** The parameters p of each start of the current stage: its start, then its optimum. */
    private final double[][] params;
    /** Per start of the current stage: 1/C at its start, C at its start, C at its end. */
    private final double[] normalisers;
    private final double[] startCosts;
    private final double[] values;
    /** The starts of the current stage still running, in start order, and the batch's poses and sums. */
    private final int[] active;
    private final double[] poses;
    private final double[] sums;
    private final double[] gradient = new double[3];
    /** The coarse optima: tx, ty (nm), θ (radians) and cost, one row per start. */
    private final double[][] optima;
    private final Integer[] order;
    private final int[] chosen;
    private final java.util.Comparator<Integer> byCost;
    // The pair being registered (set per call).
    private PairEvaluator evaluator;
    private double lever;
    /** The scale of the current stage. */
    private double current;
    private int evaluations;
    private int fullEvaluations;
    private int rounds;

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
        runs = new Lbfgs[starts];
        for (int k = 0; k < starts; k++) {
            runs[k] = new Lbfgs(3, 6);
        }
        params = new double[starts][3];
        normalisers = new double[starts];
        startCosts = new double[starts];
        values = new double[starts];
        active = new int[starts];
        poses = new double[3 * starts];
        sums = new double[4 * starts];
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
     * Batches of the last {@link #register} call: calls of {@link PairEvaluator#costs} and
     * {@link PairEvaluator#scores}, each one kernel launch and one read-back on a GPU.
     */
    int rounds() {
        return rounds;
    }

    /**
     * Registers the loaded pair.
     *
     * @param pair the device's sums over the pair's binned and full point sets
     * @param best receives the best start's S, tx, ty (nm) and θ (radians, in (−π, π]), centred coordinates
     */
    void register(PairEvaluator pair, double[] best) {
        evaluator = pair;
        lever = Math.max(pair.modelRms(), scale * COARSE_FACTOR);
        evaluations = 0;
        fullEvaluations = 0;
        rounds = 0;
        best[0] = Double.NEGATIVE_INFINITY;
        // Stage 1: every start on the coarse bins at the coarse scale.
        current = scale * COARSE_FACTOR;
        for (int k = 0; k < starts; k++) {
            params[k][0] = 0;
            params[k][1] = 0;
            params[k][2] = 2 * Math.PI * k / starts * lever / current;
        }
        optimiseAll(PairEvaluator.COARSE, starts);
        for (int k = 0; k < starts; k++) {
            save(optima[k], params[k], values[k]);
            order[k] = k;
        }
        int picked = pickDistinct(MIDDLE);
        // Stage 2: the distinct coarse optima at s on the fine bins.
        current = scale;
        for (int q = 0; q < picked; q++) {
            startAt(optima[chosen[q]], params[q]);
        }
        optimiseAll(PairEvaluator.FINE, picked);
        for (int q = 0; q < picked; q++) {
            save(optima[chosen[q]], params[q], values[q]);
        }
        for (int k = 0; k < starts; k++) {
            order[k] = k;
            if (!contains(chosen, picked, k)) {
                optima[k][3] = Double.NEGATIVE_INFINITY;
            }
        }
        picked = pickDistinct(REFINED);
        // Stage 3: the best distinct middle optima at s on the full sets, then all of them scored in one batch.
        current = scale;
        for (int q = 0; q < picked; q++) {
            startAt(optima[chosen[q]], params[q]);
        }
        optimiseAll(PairEvaluator.FULL, picked);
        for (int q = 0; q < picked; q++) {
            poses[3 * q] = params[q][0] * scale;
            poses[3 * q + 1] = params[q][1] * scale;
            poses[3 * q + 2] = params[q][2] * scale / lever;
        }
        if (picked > 0) {
            pair.scores(poses, picked, sums);
            rounds++;
        }
        for (int q = 0; q < picked; q++) {
            double score = sums[q];
            if (score > best[0]) {
                best[0] = score;
                best[1] = poses[3 * q];
                best[2] = poses[3 * q + 1];
                best[3] = wrap(poses[3 * q + 2]);
            }
        }
        evaluator = null;
    }

    /**
     * L-BFGS from params[0..count) at the current stage, all starts stepped together: each round evaluates the
     * next point of every start still running in one batch. Leaves each start's optimum in params[r] and C there
     * in values[r] (0 when C vanished at the start). Each start takes exactly the steps it would take alone.
     */
    private void optimiseAll(int set, int count) {
        // Round 0: C at every start. It sets the start's normaliser, and is also L-BFGS's first evaluation.
        for (int r = 0; r < count; r++) {
            setPose(params[r], r);
        }
        evaluate(set, count);
        int running = 0;
        for (int r = 0; r < count; r++) {
            double c0 = sums[4 * r];
            if (!(c0 > 0)) {
                values[r] = 0;
                continue;
            }
            startCosts[r] = c0;
            normalisers[r] = 1.0 / c0;
            runs[r].start(params[r], MAX_ITERATIONS, GRADIENT_TOLERANCE, VALUE_TOLERANCE, FIRST_STEP);
            if (runs[r].advance(objective(r, 4 * r), gradient)) {
                active[running++] = r;
            } else {
                finish(r);
            }
        }
        while (running > 0) {
            for (int a = 0; a < running; a++) {
                setPose(runs[active[a]].point(), a);
            }
            evaluate(set, running);
            int still = 0;
            for (int a = 0; a < running; a++) {
                int r = active[a];
                if (runs[r].advance(objective(r, 4 * a), gradient)) {
                    active[still++] = r;
                } else {
                    finish(r);
                }
            }
            running = still;
        }
    }

    private void finish(int r) {
        double[] p = runs[r].position();
        System.arraycopy(p, 0, params[r], 0, 3);
        values[r] = -runs[r].value() * startCosts[r];
    }

    /** poses[3a..] = the pose of parameters q at the current stage. */
    private void setPose(double[] q, int a) {
        poses[3 * a] = q[0] * current;
        poses[3 * a + 1] = q[1] * current;
        poses[3 * a + 2] = q[2] * current / lever;
    }

    private void evaluate(int set, int count) {
        evaluator.costs(set, current, poses, count, sums);
        rounds++;
        evaluations += count;
        if (set == PairEvaluator.FULL) {
            fullEvaluations += count;
        }
    }

    /** −C/C(start) of start r from the sums at {@code at}, and its gradient in p into {@link #gradient}. */
    private double objective(int r, int at) {
        double normaliser = normalisers[r];
        gradient[0] = sums[at + 1] * (-normaliser * current);
        gradient[1] = sums[at + 2] * (-normaliser * current);
        gradient[2] = sums[at + 3] * (-normaliser * current / lever);
        return -sums[at] * normaliser;
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
    private void startAt(double[] o, double[] p) {
        p[0] = o[0] / current;
        p[1] = o[1] / current;
        p[2] = o[2] * lever / current;
    }

    /** Saves p as the pose (tx, ty, θ) of optimum {@code o}, with the cost it reached. */
    private void save(double[] o, double[] p, double value) {
        o[0] = p[0] * current;
        o[1] = p[1] * current;
        o[2] = p[2] * current / lever;
        o[3] = value;
    }

    /** θ reduced to (−π, π]. */
    static double wrap(double theta) {
        double t = Math.IEEEremainder(theta, 2 * Math.PI);
        return t <= -Math.PI ? t + 2 * Math.PI : t;
    }
}
