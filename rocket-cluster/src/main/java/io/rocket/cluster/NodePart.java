package io.rocket.cluster;

import io.rocket.core.ResultSink;

import java.io.IOException;

/**
 * The results a node writes itself, into its own part of a shared output (a part file, or its elements of a dense
 * matrix every node writes into), instead of streaming them to rank 0. The {@link ResultStream} drives it as a run
 * journal drives its files: under the stream's lock it {@link #mark}s the part (the content ends there, and the
 * lengths say where), outside the lock it {@link #sync}s it, and only then does it tell rank 0 that the marked pairs
 * are done, with the lengths. A part therefore never holds a pair rank 0 does not know is done within the lengths
 * rank 0 has; rank 0 cuts a lost node's part back to them, and the pairs beyond are computed again elsewhere.
 *
 * @param <K> key type
 * @param <R> result type
 */
public interface NodePart<K, R> extends ResultSink<K, R> {

    /**
     * Ends the part's content here and returns its files' lengths; what it ends may still be in memory.
     *
     * @return the length of each of the part's files, in bytes, in a fixed order
     * @throws IOException when a file cannot be written
     */
    long[] mark() throws IOException;

    /**
     * Writes what {@link #mark} ended and makes it durable: after it, the marked pairs survive this process.
     *
     * @throws IOException when a file cannot be written or synced
     */
    void sync() throws IOException;
}
