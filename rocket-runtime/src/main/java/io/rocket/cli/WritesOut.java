package io.rocket.cli;

import java.io.IOException;

/**
 * An output that holds what it was given in memory for a while (whole chunks are cheaper to write) and can put it
 * into its files on demand: every few seconds during a run, and when a signal stops the run, so that the files hold
 * every pair the run reported done.
 */
interface WritesOut {
    /**
     * Writes what is held in memory to the files (not necessarily durably: no fsync). Files a run journal drives
     * are left to the journal.
     *
     * @throws IOException when a file cannot be written
     */
    void writeOut() throws IOException;
}
