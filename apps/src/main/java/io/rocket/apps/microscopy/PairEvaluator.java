package io.rocket.apps.microscopy;

/**
 * The device side of registering one pair: the sums of {@link GmmKernels} for the loaded pair, evaluated for a
 * batch of poses at once, on whichever device holds it (Java loops on cpu, one kernel launch on a GPU).
 * {@link Registrar} calls these from its control loop on the device's kernel thread, once per round of its
 * lock-stepped optimisations: every start still running contributes one pose to the batch.
 */
interface PairEvaluator {
    /** The particles binned on cells of {@link Registrar#CELL_FACTOR}·s (the slot's coarse components). */
    int COARSE = 0;
    /** The particles binned on cells of {@link Registrar#FINE_CELL_FACTOR}·s (the slot's fine components). */
    int FINE = 1;
    /** The particles' full point sets. */
    int FULL = 2;

    /**
     * The GMM-L2 cost C at each of {@code count} poses and scale s (nm), on one representation of the two particles.
     *
     * @param set   {@link #COARSE}, {@link #FINE} or {@link #FULL}
     * @param poses tx, ty (nm) and θ (radians) of pose k at 3k..3k+2, centred coordinates
     * @param out   receives C, ∂C/∂tx, ∂C/∂ty, ∂C/∂θ of pose k at 4k..4k+3
     */
    void costs(int set, double scale, double[] poses, int count, double[] out);

    /** The Bhattacharyya cross term S of the full point sets at each of {@code count} poses, into out[k]. */
    void scores(double[] poses, int count, double[] out);

    /** The model particle's rms radius (nm), which sets the optimiser's lever arm. */
    double modelRms();
}
