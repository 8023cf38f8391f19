package io.rocket.core.summary;

/**
 * How densely a run's pair space packs pairs among few items: the most pairs of the space any {@code k} of its items
 * hold between them. This is all the {@linkplain PerformanceModel#reuseLowerBound(long, long, long, PairDensity)
 * R lower bound} needs to know of the space: a scope holding C items computes, during C fills, at most the pairs among
 * the 2C items at hand. The pair spaces (triangle, rectangle, pair list, union, each ordered or not) give theirs in
 * {@code io.rocket.steal.PairSpace#density()}; an upper bound is enough (the R bound it gives is then lower, still
 * safe).
 */
@FunctionalInterface
public interface PairDensity {
    /** Every pair i &lt; j of one list: k items hold k(k − 1)/2 of them. */
    PairDensity TRIANGLE = k -> k * (k - 1) / 2;

    /**
     * The most pairs of the space among any {@code k} of its items.
     *
     * @param k a number of items, at least 0
     * @return an upper bound on the pairs any k items hold, at least 0 and non-decreasing in k
     */
    long mostPairs(long k);
}
