package io.rocket.results.reduce;

import io.rocket.core.Application;
import io.rocket.core.PairException;

/**
 * A pair's score as a reduction needs it: {@code Application.score}, with its failure turned into the pair's
 * error. Shared by the node's filter and rank 0's reduction.
 */
final class Scores {
    private Scores() {
    }

    /**
     * The error of a pair whose result has no score.
     *
     * @return the pair's error, naming the pair, both labels and the cause's message
     */
    static <K, R> PairException failure(Application<K, R> app, int i, int j, K left, K right, RuntimeException e) {
        return new PairException("pair (" + i + ", " + j + ") " + app.label(left) + " × " + app.label(right)
                + ": no score for the reduction: " + e.getMessage(), e);
    }
}
