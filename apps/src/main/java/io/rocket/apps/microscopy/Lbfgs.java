package io.rocket.apps.microscopy;

/**
 * A small limited-memory BFGS minimiser (Nocedal and Wright, Algorithm 7.4/7.5) with a backtracking Armijo line
 * search, written for a handful of parameters and allocation-free after construction: registration runs it several
 * times per pair. Curvature pairs with sᵀy ≤ 0 (possible with a backtracking search on a non-convex cost) are not
 * stored, which keeps the inverse-Hessian estimate positive definite.
 *
 * <p>Stops when the gradient's infinity norm falls below {@code gradientTolerance}, when an accepted step lowers
 * the value by less than {@code valueTolerance}·max(1, |f|), when the line search fails, or after
 * {@code maxIterations}. Not thread-safe: one instance per device workspace.
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
    private final double[] trialGradient;
    private final double[] trial;
    private final double[] direction;
    private int evaluations;
    private int iterations;

    Lbfgs(int dim, int memory) {
        this.dim = dim;
        this.memory = memory;
        s = new double[memory][dim];
        y = new double[memory][dim];
        rho = new double[memory];
        alpha = new double[memory];
        gradient = new double[dim];
        trialGradient = new double[dim];
        trial = new double[dim];
        direction = new double[dim];
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
     * Minimises {@code f} from {@code p}, leaving the minimiser found in {@code p}.
     *
     * @param firstStep length of the first trial step along the steepest descent, in units of p
     * @return the value at the returned point
     */
    double minimize(Objective f, double[] p, int maxIterations, double gradientTolerance, double valueTolerance,
                    double firstStep) {
        evaluations = 1;
        iterations = 0;
        double value = f.evaluate(p, gradient);
        int stored = 0;
        int newest = -1;
        while (iterations < maxIterations && normInf(gradient) > gradientTolerance) {
            searchDirection(stored, newest);
            double slope = dot(direction, gradient);
            if (!(slope < 0)) {
                // Not a descent direction (a bad curvature estimate): restart from steepest descent.
                stored = 0;
                for (int k = 0; k < dim; k++) {
                    direction[k] = -gradient[k];
                }
                slope = dot(direction, gradient);
            }
            double step = stored == 0 ? firstStep / Math.sqrt(dot(direction, direction)) : 1.0;
            double trialValue = Double.NaN;
            boolean accepted = false;
            for (int b = 0; b < MAX_BACKTRACKS; b++) {
                for (int k = 0; k < dim; k++) {
                    trial[k] = p[k] + step * direction[k];
                }
                trialValue = f.evaluate(trial, trialGradient);
                evaluations++;
                if (trialValue <= value + ARMIJO * step * slope) {
                    accepted = true;
                    break;
                }
                step *= 0.5;
            }
            if (!accepted) {
                break;
            }
            iterations++;
            int slot = (newest + 1) % memory;
            double sy = 0;
            for (int k = 0; k < dim; k++) {
                s[slot][k] = trial[k] - p[k];
                y[slot][k] = trialGradient[k] - gradient[k];
                sy += s[slot][k] * y[slot][k];
                p[k] = trial[k];
                gradient[k] = trialGradient[k];
            }
            if (sy > 1e-300) {
                rho[slot] = 1.0 / sy;
                newest = slot;
                stored = Math.min(stored + 1, memory);
            }
            double decrease = value - trialValue;
            value = trialValue;
            if (decrease <= valueTolerance * Math.max(1.0, Math.abs(value))) {
                break;
            }
        }
        return value;
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
