package io.rocket.runtime;

import io.rocket.cluster.ClusterProgress;
import io.rocket.core.ResultSink;
import io.rocket.results.reduce.DroppedPairs;

/**
 * The progress stage of a result chain ({@link ResultChain}): it counts every result on its way to the outputs, is
 * told of pairs done without a result (dropped by a reduction, or written by the node that computed them), and, on
 * rank 0 of a cluster run, which rank computed how many pairs. The chain links it to the stage after it once.
 *
 * @param <K> key type
 * @param <R> result type
 */
public interface ProgressStage<K, R> extends ResultSink<K, R>, DroppedPairs, ClusterProgress {

    /**
     * Sets the stage every result goes on to; called once by the chain, before the first result.
     *
     * @param next the outputs
     * @throws IllegalStateException when the stage is linked already
     */
    void linkTo(ResultSink<K, R> next);
}
