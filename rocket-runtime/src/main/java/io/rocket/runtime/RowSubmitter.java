package io.rocket.runtime;

import io.rocket.node.NodePipeline;
import io.rocket.node.ResidentRow;
import io.rocket.steal.PairMask;
import io.rocket.steal.PairSubmitter;

import java.util.function.Supplier;

/**
 * Hands a worker's pairs to the node's pipeline, leaving out the pairs the run skips and adding the other
 * orientation of each pair for an ordered application. On a device that runs resident rows
 * ({@link NodePipeline#rowSpan}) a leaf's row goes in runs of columns: a run whose items are all in the device's L1
 * runs as one task on the device's kernel thread, the others as the pipeline's pair jobs.
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
        int span = to.rowSpan(device);
        if (span == 0) {
            for (int j = c0; j < c1; j++) {
                if (done == null || !done.contains(i, j)) {
                    pair(to, device, i, j);
                }
                if (ordered && (done == null || !done.contains(j, i))) {
                    pair(to, device, j, i); // f(item j, item i): the other orientation, next
                }
            }
            return;
        }
        for (int from = c0; from < c1; from += span) {
            int until = Math.min(c1, from + span);
            ResidentRow<K, R> row = to.takeRow(device);
            try {
                row.start(i);
                for (int j = from; j < until; j++) {
                    boolean forward = done == null || !done.contains(i, j);
                    boolean backward = ordered && (done == null || !done.contains(j, i));
                    if (beforeSubmit != null) {
                        if (forward) {
                            beforeSubmit.submit(device, i, j);
                        }
                        if (backward) {
                            beforeSubmit.submit(device, j, i);
                        }
                    }
                    row.add(j, forward, backward);
                }
            } catch (InterruptedException | RuntimeException e) {
                to.returnRow(device, row);
                throw e;
            }
            to.submitRow(device, row); // the row's pairs, in this order; the row goes back to its pool
        }
    }

    private void pair(NodePipeline<K, R> to, int device, int a, int b) throws InterruptedException {
        if (beforeSubmit != null) {
            beforeSubmit.submit(device, a, b);
        }
        to.submit(device, a, b);
    }
}
