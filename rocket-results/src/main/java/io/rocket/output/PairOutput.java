package io.rocket.output;

import io.rocket.core.ResultSink;

import java.io.IOException;

/**
 * A command's pair output as it opens it (TSV, gzip, {@code .npy}): a sink that holds what it was given in memory for a while
 * (whole chunks are cheaper to write) and puts it into its files on demand, every few seconds during a run and when a
 * signal stops the run, so that the files hold every pair the run reported done.
 *
 * @param <K> key type
 * @param <R> result type
 */
public interface PairOutput<K, R> extends ResultSink<K, R> {
    /**
     * Writes what is held in memory to the files (not necessarily durably: no fsync). Files a run journal drives
     * are left to the journal.
     *
     * @throws IOException when a file cannot be written
     */
    void writeOut() throws IOException;

    /**
     * How many result lines the output holds, where it counts them in lines.
     *
     * @return the results written since it was opened, or -1 for an output that does not count in lines
     */
    default long resultsWritten() {
        return -1;
    }
}
