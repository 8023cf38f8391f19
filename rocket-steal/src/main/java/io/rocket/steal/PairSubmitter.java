package io.rocket.steal;

/** Where a worker sends the pairs of a leaf region: the device's pipeline (which may block for back-pressure). */
@FunctionalInterface
public interface PairSubmitter {
    void submit(int device, int i, int j) throws InterruptedException;
}
