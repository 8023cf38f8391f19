package io.rocket.cluster;

/**
 * Rank 0's running count of the pairs each node computes, for progress displays. A result sink handed to
 * {@code ClusterRun.run} that also implements this interface is told, on rank 0 only, how many nodes the run has,
 * which rank computed how many pairs as their results come in, and which ranks are lost. Rank 0 counts its own
 * pairs one at a time as its pipeline finishes them, and another rank's per result batch as the batch reaches the
 * collector (so a rank's count trails its work by at most one batch, about 20 ms). Counts include failed pairs and
 * pairs recomputed after a loss; pairs resumed from a journal are not computed by anyone and never counted here.
 *
 * <p>Calls come from the pipeline's and the result delivery's threads, concurrently: implementations must be
 * thread-safe and cheap (a counter add), and must not block.
 */
public interface ClusterProgress {

    /**
     * The cluster has not formed yet: {@code missing} (ranks, in order) have not joined after {@code waitedMillis}
     * of the {@code timeoutMillis} the run waits for them ({@code --join-timeout}). Called from the start of the
     * run a few times a second until {@link #clusterStarted}; nothing is computed before.
     */
    default void joining(java.util.List<Integer> missing, long waitedMillis, long timeoutMillis) {
    }

    /** The cluster has formed and the run starts with {@code nodes} nodes; called once, before any {@link #computed}. */
    void clusterStarted(int nodes);

    /** {@code rank} computed {@code pairs} more pairs. */
    void computed(int rank, int pairs);

    /** {@code rank} was lost: it computes nothing more, and its unfinished work goes to the others. */
    void lost(int rank);
}
