package io.rocket.steal;

/** Where a worker sends the pairs of a leaf region: the device's pipeline (which may block for back-pressure). */
@FunctionalInterface
public interface PairSubmitter {
    void submit(int device, int i, int j) throws InterruptedException;

    /**
     * The pairs (i, j) for every j in {@code [c0, c1)}, in that order: one row of a leaf, which a pipeline may run
     * as one tile instead of pair by pair.
     */
    default void submitRow(int device, int i, int c0, int c1) throws InterruptedException {
        for (int j = c0; j < c1; j++) {
            submit(device, i, j);
        }
    }
}
