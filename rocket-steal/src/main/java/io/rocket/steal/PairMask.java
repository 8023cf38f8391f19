package io.rocket.steal;

/**
 * A {@link PairSet} frozen at one moment: the pairs a node's workers skip (those outside the run's
 * {@link PairSpace}, and those a resumed run has already). It never changes, so a worker asks it about every pair
 * without taking a lock.
 */
public final class PairMask {
    private final PairSet frozen;
    private final long size;

    /** @param frozen a copy of a set that nobody changes any more */
    PairMask(PairSet frozen, long size) {
        this.frozen = frozen;
        this.size = size;
    }

    /**
     * Whether pair (i, j) is in the mask.
     *
     * @param i the pair's first item
     * @param j the pair's second item, not i
     * @return whether the pair was in the set when the mask was taken
     */
    public boolean contains(int i, int j) {
        return frozen.holds(i, j);
    }

    /** Pairs in the mask. */
    public long size() {
        return size;
    }
}
