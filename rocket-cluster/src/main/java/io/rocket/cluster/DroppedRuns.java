package io.rocket.cluster;

import io.rocket.results.PairRecords;

import java.io.DataOutput;
import java.io.IOException;

/**
 * The pairs a node dropped and has not yet told rank 0 of, gathered into runs of consecutive columns of one row, so
 * that a dropped pair costs a fraction of a record instead of a message. A few runs stay open at once, because the
 * node's devices finish pairs of different tiles in between; a pair that extends no open run opens one, writing out
 * the oldest when all are open. Not thread-safe: its owner ({@link ResultStream}) holds its lock around each call.
 */
final class DroppedRuns {
    /** Runs kept open at once: about one per device, with room to spare. */
    static final int OPEN_RUNS = 16;

    private final int[] rows = new int[OPEN_RUNS];
    private final int[] from = new int[OPEN_RUNS];
    private final int[] counts = new int[OPEN_RUNS];
    private int open;
    /** The next open run to write out when one more must open (round robin: the oldest). */
    private int nextOut;

    /**
     * Adds pair (i, j), writing a run out to {@code out} when the open runs are all taken.
     *
     * @return the records written: 0 or 1
     */
    int add(int i, int j, DataOutput out) throws IOException {
        for (int r = 0; r < open; r++) {
            if (rows[r] != i) {
                continue;
            }
            if (from[r] + counts[r] == j) {
                counts[r]++;
                return 0;
            }
            if (from[r] - 1 == j) {
                from[r] = j;
                counts[r]++;
                return 0;
            }
        }
        if (open < OPEN_RUNS) {
            start(open++, i, j);
            return 0;
        }
        int r = nextOut;
        nextOut = (nextOut + 1) % OPEN_RUNS;
        PairRecords.writeDropped(out, rows[r], from[r], counts[r]);
        start(r, i, j);
        return 1;
    }

    private void start(int r, int i, int j) {
        rows[r] = i;
        from[r] = j;
        counts[r] = 1;
    }

    /**
     * Writes every open run to {@code out} and closes them.
     *
     * @return the records written
     */
    int writeAll(DataOutput out) throws IOException {
        int written = open;
        for (int r = 0; r < open; r++) {
            PairRecords.writeDropped(out, rows[r], from[r], counts[r]);
        }
        open = 0;
        nextOut = 0;
        return written;
    }

    /** Whether a run is open. */
    boolean isEmpty() {
        return open == 0;
    }
}
