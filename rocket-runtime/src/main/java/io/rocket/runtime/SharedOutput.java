package io.rocket.runtime;

import io.rocket.cluster.NodePart;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A pair output in a directory every node of a cluster run sees (a cluster file system), which every node writes
 * its share of: rank 0 opens it once the cluster has formed and before any rank computes, each other rank writes the
 * results it computes into its own {@link NodePart} and sends rank 0 only which pairs are done, with its part's
 * lengths, and rank 0 ends the output when the run ends (cutting a lost rank's part back to what rank 0 counted
 * done, and writing what says where the results are). Rank 0's own results go to its pair output as in any run.
 *
 * @param <K> key type
 * @param <R> result type
 */
public interface SharedOutput<K, R> {

    /**
     * Rank 0, once every rank has joined and before START: opens the output (a dense matrix the ranks write into is
     * created at its full size), so that a cluster that never forms touches no file.
     *
     * @throws IOException when the output cannot be created
     */
    void open() throws IOException;

    /**
     * A rank above 0: its part, opened by the rank's first result (after START, so after {@link #open}).
     *
     * @param rank the rank, at least 1
     * @return the part, never null
     * @throws IOException when the part cannot be opened
     */
    NodePart<K, R> part(int rank) throws IOException;

    /**
     * Rank 0, as the run starts: where the other ranks' part lengths and the lost ranks can be read from then on.
     *
     * @param lengths each rank's last part lengths, as rank 0 has received them
     * @param lost    the ranks lost so far
     */
    void track(Supplier<Map<Integer, long[]>> lengths, Supplier<Set<Integer>> lost);
}
