package io.rocket.cluster;

import io.rocket.results.PairRecords;

import java.io.DataOutput;
import java.io.IOException;

/**
 * The pairs a node dropped (or wrote into its own part) and has not yet told rank 0 of, gathered into runs of
 * consecutive columns of one row, so that a pair costs a fraction of a record instead of a message. Each row has at
 * most one open run, in a table indexed by the row (direct-mapped: {@link #OPEN_RUNS} slots), because a node's devices
 * finish the rows of a tile interleaved (a query × reference tile has up to a tile side of rows going at once): a
 * pair that extends its row's run costs nothing, one that does not writes that run out and opens another, and a row
 * whose slot another row holds writes the other out. Not thread-safe: its owner ({@link ResultStream}) holds its lock
 * around each call.
 */
final class DroppedRuns {
    /** Rows with an open run at once: a tile side of rows, and more, so that neighbouring tiles rarely collide. */
    static final int OPEN_RUNS = 1024;

    private final int[] rows = new int[OPEN_RUNS];
    private final int[] from = new int[OPEN_RUNS];
    private final int[] counts = new int[OPEN_RUNS];
    private int open;

    /**
     * Adds pair (i, j), writing out the run it cannot join when its slot is taken.
     *
     * @return the records written: 0 or 1
     */
    int add(int i, int j, DataOutput out) throws IOException {
        int r = i & (OPEN_RUNS - 1);
        if (counts[r] > 0 && rows[r] == i) {
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
        int written = 0;
        if (counts[r] > 0) {
            PairRecords.writeDropped(out, rows[r], from[r], counts[r]);
            written = 1;
        } else {
            open++;
        }
        rows[r] = i;
        from[r] = j;
        counts[r] = 1;
        return written;
    }

    /**
     * Writes every open run to {@code out} and closes them.
     *
     * @return the records written
     */
    int writeAll(DataOutput out) throws IOException {
        int written = 0;
        for (int r = 0; r < OPEN_RUNS && written < open; r++) {
            if (counts[r] > 0) {
                PairRecords.writeDropped(out, rows[r], from[r], counts[r]);
                counts[r] = 0;
                written++;
            }
        }
        open = 0;
        return written;
    }

    /** Whether a run is open. */
    boolean isEmpty() {
        return open == 0;
    }
}
