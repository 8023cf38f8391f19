package io.rocket.cluster;

import io.rocket.results.PairRecords;

import java.io.DataOutput;
import java.io.IOException;

/**
 * The pairs a node dropped (or wrote into its own part) and has not yet told rank 0 of, gathered into runs of
 * consecutive columns of one row, so that a pair costs a fraction of a record instead of a message. Pairs are marked
 * in a table of blocks of 512 columns of one row (direct-mapped by row and block: {@link #OPEN_RUNS} blocks, a bit per
 * column): a node's devices finish the rows of a tile interleaved (a query × reference tile has up to a tile side of
 * rows going at once), several devices work on the same rows in different column blocks, and results reach the
 * stream a little out of order from the threads that post-process them. A block is written out as its runs of set
 * columns when another block needs its slot, and every block when the stream sends. Not thread-safe: its owner
 * ({@link ResultStream}) holds its lock around each call.
 */
final class DroppedRuns {
    /** Blocks open at once: a tile side of rows in a few column blocks, so that neighbouring tiles rarely collide. */
    static final int OPEN_RUNS = 4096;
    /** Columns per block, as a shift: 512. */
    private static final int BLOCK_SHIFT = 9;
    private static final int WORDS = (1 << BLOCK_SHIFT) / 64;
    private static final long EMPTY = -1;

    /** Each slot's row and block ({@code row << 32 | block}), or {@link #EMPTY}. */
    private final long[] blocks = new long[OPEN_RUNS];
    /** Each slot's columns, {@link #WORDS} words a slot. */
    private final long[] columns = new long[OPEN_RUNS * WORDS];
    private int open;

    DroppedRuns() {
        java.util.Arrays.fill(blocks, EMPTY);
    }

    /**
     * Adds pair (i, j), writing out the block whose slot it needs.
     *
     * @return the records written
     */
    int add(int i, int j, DataOutput out) throws IOException {
        long block = ((long) i << 32) | (j >>> BLOCK_SHIFT);
        int r = (int) ((block * 0x9E3779B97F4A7C15L) >>> (64 - Integer.numberOfTrailingZeros(OPEN_RUNS)));
        int written = 0;
        if (blocks[r] != block) {
            if (blocks[r] == EMPTY) {
                open++;
            } else {
                written = writeOut(r, out);
            }
            blocks[r] = block;
        }
        int column = j & ((1 << BLOCK_SHIFT) - 1);
        columns[r * WORDS + (column >>> 6)] |= 1L << column;
        return written;
    }

    /** Writes slot {@code r}'s runs of set columns and empties it; returns the records written. */
    private int writeOut(int r, DataOutput out) throws IOException {
        int row = (int) (blocks[r] >>> 32);
        int base = (int) (blocks[r] & 0xFFFF_FFFFL) << BLOCK_SHIFT;
        int records = 0;
        int run = -1;
        for (int c = 0; c <= WORDS * 64; c++) {
            boolean set = c < WORDS * 64 && (columns[r * WORDS + (c >>> 6)] & (1L << c)) != 0;
            if (set && run < 0) {
                run = c;
            } else if (!set && run >= 0) {
                PairRecords.writeDropped(out, row, base + run, c - run);
                records++;
                run = -1;
            }
        }
        java.util.Arrays.fill(columns, r * WORDS, (r + 1) * WORDS, 0L);
        blocks[r] = EMPTY;
        return records;
    }

    /**
     * Writes every open block's runs to {@code out} and empties them.
     *
     * @return the records written
     */
    int writeAll(DataOutput out) throws IOException {
        int written = 0;
        for (int r = 0; r < OPEN_RUNS && open > 0; r++) {
            if (blocks[r] != EMPTY) {
                written += writeOut(r, out);
                open--;
            }
        }
        return written;
    }

    /** Whether a run is open. */
    boolean isEmpty() {
        return open == 0;
    }
}
