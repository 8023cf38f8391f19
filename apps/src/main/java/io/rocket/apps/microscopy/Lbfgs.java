package io.rocket.apps.microscopy;

/**
 * A small limited-memory BFGS minimiser (Nocedal and Wright, Algorithm 7.4/7.5) with a backtracking Armijo line
 * search, written for a handful of parameters and allocation-free after construction: registration runs it several
 * times per pair. A run is a small state machine ({@link #start}, {@link #point()}, {@link #advance}) so that the
 * registration can step one run per start together and evaluate all their points in one batch (one GPU launch);
 * {@link #minimize} drives one run with a callback. Curvature pairs with sᵀy ≤ 0 (possible with a backtracking search on a non-convex cost) are not
 * stored, which keeps the inverse-Hessian estimate positive definite.
 *
 * <p>Stops when the gradient's infinity norm falls below {@code gradientTolerance}, when an accepted step lowers
 * the value by less than {@code valueTolerance}·max(1, |f|), when the line search fails, or after
 * {@code maxIterations}. Not thread-safe: one instance per run in flight.
 */
final class Lbfgs {

    /** A function to minimise: returns f(p) and writes ∇f(p) into {@code gradient}. */
    @FunctionalInterface
    interface Objective {
        double evaluate(double[] p, double[] gradient);
    }

    private static final double ARMIJO = 1e-4;
    private static final int MAX_BACKTRACKS = 30;

    private final int dim;
    private final int memory;
    private final double[][] s;
    private final double[][] y;
    private final double[] rho;
    private final double[] alpha;
    private final double[] gradient;
    private final double[] direction;
    /** The accepted point, and the point to evaluate next (the start, then each trial). */
    private final double[] position;
    private final double[] point;
    /** Scratch for {@link #minimize}'s evaluations. */
    private final double[] evaluated;
    private int evaluations;
    private int iterations;

    /** Where a run stands: its first evaluation pending, a trial step pending, or over. */
    private enum Phase { FIRST, TRIAL, DONE }

    private Phase phase = Phase.DONE;
    private int maxIterations;
    private double gradientTolerance;
    private double valueTolerance;
    private double firstStep;
    private int stored;
    private int newest;
    private double value;
    private double slope;
    private double step;
    private int backtracks;

    Lbfgs(int dim, int memory) {
        this.dim = dim;
        this.memory = memory;
        s = new double[memory][dim];
        y = new double[memory][dim];
        rho = new double[memory];
        alpha = new double[memory];
        gradient = new double[dim];
        direction = new double[dim];
        position = new double[dim];
        point = new double[dim];
        evaluated = new double[dim];
    }

    /** Function evaluations of the last {@link #minimize} call. */
    int evaluations() {
        return evaluations;
    }

    /** Iterations (accepted steps) of the last {@link #minimize} call. */
    int iterations() {
        return iterations;
    }

    /**
     * Minimises {@code f} from {@code p}, leaving the minimiser found in {@code p}: {@link #start}, then
     * {@link #advance} with f at each {@link #point()} until it says the run is over.
     *
     * @param firstStep length of the first trial step along the steepest descent, in units of p
     * @return the value at the returned point
     */
    double minimize(Objective f, double[] p, int maxIterations, double gradientTolerance, double valueTolerance,
                    double firstStep) {
        start(p, maxIterations, gradientTolerance, valueTolerance, firstStep);
        boolean running = true;
        while (running) {
            double v = f.evaluate(point, evaluated);
            running = advance(v, evaluated);
        }
        System.arraycopy(position, 0, p, 0, dim);
        return value;
    }

    /**
     * Starts a run from {@code p} (copied): {@link #point()} is then p, the first point to evaluate. The caller
     * evaluates each point it is handed and passes the result to {@link #advance}; several runs can so be stepped
     * together, their evaluations batched, each taking exactly the steps {@link #minimize} would.
     */
    void start(double[] p, int maxIterations, double gradientTolerance, double valueTolerance, double firstStep) {
        this.maxIterations = maxIterations;
        this.gradientTolerance = gradientTolerance;
        this.valueTolerance = valueTolerance;
        this.firstStep = firstStep;
        System.arraycopy(p, 0, position, 0, dim);
        System.arraycopy(p, 0, point, 0, dim);
        evaluations = 0;
        iterations = 0;
        stored = 0;
        newest = -1;
        value = Double.NaN;
        phase = Phase.FIRST;
    }

    /** The point the run needs f and ∇f at next (read-only; valid until the next {@link #advance}). */
    double[] point() {
        return point;
    }

    /** The best point so far (the minimiser once the run is over; read-only). */
    double[] position() {
        return position;
    }

    /** The value at {@link #position()}. */
    double value() {
        return value;
    }

    /**
     * Takes f and ∇f at {@link #point()} and moves the run on.
     *
     * @return true when the run needs another evaluation (at the new {@link #point()}), false when it is over
     */
    boolean advance(double f, double[] g) {
        evaluations++;
        if (phase == Phase.FIRST) {
            value = f;
            System.arraycopy(g, 0, gradient, 0, dim);
            return beginIteration();
        }
        if (phase != Phase.TRIAL) {
            throw new IllegalStateException("the run is over");
        }
        if (f <= value + ARMIJO * step * slope) {
            iterations++;
            int slot = (newest + 1) % memory;
            double sy = 0;
            for (int k = 0; k < dim; k++) {
                s[slot][k] = point[k] - position[k];
                y[slot][k] = g[k] - gradient[k];
                sy += s[slot][k] * y[slot][k];
                position[k] = point[k];
                gradient[k] = g[k];
            }
            if (sy > 1e-300) {
                rho[slot] = 1.0 / sy;
                newest = slot;
                stored = Math.min(stored + 1, memory);
            }
            double decrease = value - f;
            value = f;
            if (decrease <= valueTolerance * Math.max(1.0, Math.abs(value))) {
                phase = Phase.DONE;
                return false;
            }
            return beginIteration();
        }
        step *= 0.5;
        if (++backtracks == MAX_BACKTRACKS) {
            // The line search failed: keep the last accepted point.
            phase = Phase.DONE;
            return false;
        }
        setTrial();
        return true;
    }

    /** Starts an iteration from the accepted point, or ends the run when it has converged or run out. */
    private boolean beginIteration() {
        if (iterations >= maxIterations || normInf(gradient) <= gradientTolerance) {
            phase = Phase.DONE;
            return false;
        }
        searchDirection(stored, newest);
        slope = dot(direction, gradient);
        if (!(slope < 0)) {
            // Not a descent direction (a bad curvature estimate): restart from steepest descent.
            stored = 0;
            for (int k = 0; k < dim; k++) {
                direction[k] = -gradient[k];
            }
            slope = dot(direction, gradient);
        }
        step = stored == 0 ? firstStep / Math.sqrt(dot(direction, direction)) : 1.0;
        backtracks = 0;
        setTrial();
        phase = Phase.TRIAL;
        return true;
    }

    private void setTrial() {
        for (int k = 0; k < dim; k++) {
            point[k] = position[k] + step * direction[k];
        }
    }

    /** direction = −H·gradient by the two-loop recursion over the stored pairs, newest first. */
    private void searchDirection(int stored, int newest) {
        for (int k = 0; k < dim; k++) {
            direction[k] = -gradient[k];
        }
        int slot = newest;
        for (int m = 0; m < stored; m++) {
            alpha[slot] = rho[slot] * dot(s[slot], direction);
            for (int k = 0; k < dim; k++) {
                direction[k] -= alpha[slot] * y[slot][k];
            }
            slot = (slot - 1 + memory) % memory;
        }
        if (stored > 0) {
            // Initial Hessian γI with γ = sᵀy / yᵀy of the newest pair.
            double gamma = 1.0 / (rho[newest] * dot(y[newest], y[newest]));
            for (int k = 0; k < dim; k++) {
                direction[k] *= gamma;
            }
        }
        slot = (newest - stored + 1 + memory) % memory;
        for (int m = 0; m < stored; m++) {
            double beta = rho[slot] * dot(y[slot], direction);
            for (int k = 0; k < dim; k++) {
                direction[k] += (alpha[slot] - beta) * s[slot][k];
            }
            slot = (slot + 1) % memory;
        }
    }

    private double dot(double[] a, double[] b) {
        double sum = 0;
        for (int k = 0; k < dim; k++) {
            sum += a[k] * b[k];
        }
        return sum;
    }

    private double normInf(double[] a) {
        double max = 0;
        for (int k = 0; k < dim; k++) {
            max = Math.max(max, Math.abs(a[k]));
        }
        return max;
    }
}
