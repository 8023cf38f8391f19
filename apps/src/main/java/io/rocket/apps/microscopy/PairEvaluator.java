package io.rocket.apps.microscopy;

/**
 * The device side of registering one pair: the sums of {@link GmmKernels} evaluated for the loaded pair, on
 * whichever device holds it (Java loops on cpu, kernels on a GPU). {@link Registrar} calls these from its control
 * loop on the device's kernel thread.
 */
interface PairEvaluator {

    /**
     * The GMM-L2 cost C at (tx, ty, θ) in centred coordinates and scale s (nm), with ∂C/∂tx, ∂C/∂ty, ∂C/∂θ into
     * gradient.
     */
    double cost(double tx, double ty, double theta, double scale, double[] gradient);

    /** The Bhattacharyya cross term S at (tx, ty, θ). */
    double score(double tx, double ty, double theta);
}
