package io.rocket.node;

/** Told when a pair job ends (computed or failed), for termination counting and scheduling. */
@FunctionalInterface
public interface PairListener {
    void pairDone(int device, int i, int j, boolean ok);
}
