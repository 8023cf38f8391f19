package io.rocket.results.reduce;

/**
 * Told of pairs that were computed but not kept by a {@link Reduction}: they are done, and no result of theirs will
 * follow. A cluster node's result stream sends them to rank 0 as compact runs (consecutive columns of one row), so
 * rank 0 counts them as finished and recovery re-runs exactly the pairs nobody acknowledged; a progress display
 * counts them as done.
 */
public interface DroppedPairs {

    /**
     * Pairs {@code (i, fromJ)}, {@code (i, fromJ + 1)}, ..., {@code (i, fromJ + count - 1)} are done without a result.
     *
     * @param i     the row: the pairs' first item
     * @param fromJ the first pair's second item, greater than {@code i}
     * @param count how many consecutive columns, at least 1
     */
    void dropped(int i, int fromJ, int count);
}
