package io.rocket.runtime;

import io.rocket.node.NodePipeline;
import io.rocket.node.ResidentRow;
import io.rocket.steal.PairMask;
import io.rocket.steal.PairSubmitter;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Hands a worker's pairs to the node's pipeline, leaving out the pairs the run skips and adding the other
 * orientation of each pair for an ordered application. On a device that runs resident rows
 * ({@link NodePipeline#rowSpan}) a leaf's rows are packed into tasks (runs of at most the span's columns, several
 * rows to a task as far as they fit, sharing their column entries): each task runs on the device's kernel thread in
 * one hand-off once its items are in the device's L1; elsewhere each pair is one of the pipeline's pair jobs.
 *
 * @param <K> key type
 * @param <R> result type
 */
final class RowSubmitter<K, R> implements PairSubmitter {
    private final Supplier<PairMask> skip;
    private final boolean ordered;
    private final PairSubmitter beforeSubmit;
    private volatile NodePipeline<K, R> pipeline;

    /**
     * @param skip         the pairs to skip now, or a supplier of null for none
     * @param ordered      whether each pair runs in both orientations
     * @param beforeSubmit runs before each pair that is not skipped (it may block), or null
     */
    RowSubmitter(Supplier<PairMask> skip, boolean ordered, PairSubmitter beforeSubmit) {
        this.skip = skip;
        this.ordered = ordered;
        this.beforeSubmit = beforeSubmit;
    }

    /** The pipeline the pairs go to; set before the workers start. */
    void pipeline(NodePipeline<K, R> value) {
        pipeline = value;
    }

    @Override
    public void submit(int device, int i, int j) throws InterruptedException {
        submitRow(device, i, j, j + 1);
    }

    @Override
    public void submitRow(int device, int i, int c0, int c1) throws InterruptedException {
        NodePipeline<K, R> to = pipeline;
        PairMask done = skip.get();
        if (to.rowSpan(device) == 0) {
            pairs(to, device, i, c0, c1, done);
            return;
        }
        Tiles tiles = new Tiles(to, device, done);
        try {
            tiles.row(i, c0, c1);
            tiles.flush();
        } finally {
            tiles.abandon();
        }
    }

    @Override
    public void submitLeaf(int device, int r0, int r1, int c0, int c1, boolean descending, BooleanSupplier stop)
            throws InterruptedException {
        NodePipeline<K, R> to = pipeline;
        if (to.rowSpan(device) == 0) {
            PairSubmitter.super.submitLeaf(device, r0, r1, c0, c1, descending, stop);
            return;
        }
        Tiles tiles = new Tiles(to, device, skip.get());
        try {
            for (int k = 0; k < r1 - r0 && !stop.getAsBoolean(); k++) {
                int i = descending ? r1 - 1 - k : r0 + k;
                int from = Math.max(c0, i + 1);
                if (from < c1) {
                    tiles.row(i, from, c1);
                }
            }
            tiles.flush();
        } finally {
            tiles.abandon();
        }
    }

    /** Each pair of row i over columns {@code [c0, c1)} as its own job. */
    private void pairs(NodePipeline<K, R> to, int device, int i, int c0, int c1, PairMask done)
            throws InterruptedException {
        for (int j = c0; j < c1; j++) {
            if (done == null || !done.contains(i, j)) {
                pair(to, device, i, j);
            }
            if (ordered && (done == null || !done.contains(j, i))) {
                pair(to, device, j, i); // f(item j, item i): the other orientation, next
            }
        }
    }

    /**
     * Packs a leaf's rows into resident rows: as many rows as fit go to the kernel thread as one task, and rows over
     * the same columns share those columns' entries, so a leaf of cheap pairs whose items fit the L1 is one
     * hand-off. A task holds at most the pairs {@link NodePipeline#pairsPerTask} asks for (a few milliseconds of
     * work), so expensive pairs go a few at a time. One per leaf, used by one worker.
     */
    private final class Tiles {
        private final NodePipeline<K, R> to;
        private final int device;
        private final int span;
        /** Most pairs in one task. */
        private final int cap;
        private final PairMask done;
        private ResidentRow<K, R> row;
        /** The open task's latest column entries: columns [colFirst, colEnd) from entry colBase on. */
        private int colFirst;
        private int colEnd;
        private int colBase;

        Tiles(NodePipeline<K, R> to, int device, PairMask done) {
            this.to = to;
            this.device = device;
            this.cap = to.pairsPerTask();
            this.span = Math.max(1, Math.min(to.rowSpan(device), cap / (ordered ? 2 : 1)));
            this.done = done;
        }

        /** Row i over columns [c0, c1), in pieces of at most the span's columns (and the cap's pairs). */
        void row(int i, int c0, int c1) throws InterruptedException {
            for (int from = c0; from < c1; from += span) {
                piece(i, from, Math.min(c1, from + span));
            }
        }

        private void piece(int i, int from, int until) throws InterruptedException {
            int columns = until - from;
            int pairs = (ordered ? 2 : 1) * columns;
            boolean shared = row != null && from >= colFirst && until <= colEnd;
            if (row != null && (!row.fits(1 + (shared ? 0 : columns), pairs) || row.size() + pairs > cap)) {
                flush();
                shared = false;
            }
            if (row == null) {
                row = to.takeRow(device);
                row.start();
            }
            int me = row.addItem(i);
            if (!shared) {
                colBase = row.addItem(from);
                for (int j = from + 1; j < until; j++) {
                    row.addItem(j);
                }
                colFirst = from;
                colEnd = until;
            }
            for (int j = from; j < until; j++) {
                int column = colBase + (j - colFirst);
                boolean forward = done == null || !done.contains(i, j);
                boolean backward = ordered && (done == null || !done.contains(j, i));
                if (forward) {
                    before(i, j);
                    row.pair(me, column);
                }
                if (backward) {
                    before(j, i);
                    row.pair(column, me);
                }
            }
        }

        private void before(int a, int b) throws InterruptedException {
            if (beforeSubmit != null) {
                beforeSubmit.submit(device, a, b);
            }
        }

        /** Submits the open task, if any: its pairs, in the order added; the row goes back to its pool. */
        void flush() throws InterruptedException {
            ResidentRow<K, R> full = row;
            row = null;
            if (full != null) {
                to.submitRow(device, full);
            }
        }

        /** Gives back a task left open by a failure. */
        void abandon() {
            if (row != null) {
                to.returnRow(device, row);
                row = null;
            }
        }
    }

    private void pair(NodePipeline<K, R> to, int device, int a, int b) throws InterruptedException {
        if (beforeSubmit != null) {
            beforeSubmit.submit(device, a, b);
        }
        to.submit(device, a, b);
    }
}
