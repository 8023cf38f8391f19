package io.rocket.steal;

import java.util.function.BooleanSupplier;

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

    /**
     * The pairs of one leaf, row by row: for each row i of {@code [r0, r1)} (from {@code r1 - 1} down when
     * {@code descending}), the pairs (i, j) for every j in {@code [max(c0, i + 1), c1)}, as {@link #submitRow} has
     * them. A pipeline may run several rows as one task, and go through the leaf a block of columns at a time (every
     * row's pairs in the block, then the next block), so that a task's rows share their columns. Stops between rows
     * once {@code stop} says so (the run is stopping).
     */
    default void submitLeaf(int device, int r0, int r1, int c0, int c1, boolean descending, BooleanSupplier stop)
            throws InterruptedException {
        for (int k = 0; k < r1 - r0 && !stop.getAsBoolean(); k++) {
            int i = descending ? r1 - 1 - k : r0 + k;
            int from = Math.max(c0, i + 1);
            if (from < c1) {
                submitRow(device, i, from, c1);
            }
        }
    }
}
