package io.rocket.runtime;

import io.rocket.node.NodePipeline;
import io.rocket.steal.PairMask;
import io.rocket.steal.PairSubmitter;

import java.util.function.Supplier;

/**
 * Hands a worker's pairs to the node's pipeline, leaving out the pairs the run skips and adding the other
 * orientation of each pair for an ordered application. A row whose items are all in the device's L1 runs inline on
 * the worker's thread ({@link NodePipeline#openRow}); the others go through the pipeline's pair jobs.
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
        int span = to.inlineSpan(device);
        int step = span > 0 ? span : c1 - c0;
        for (int from = c0; from < c1; from += step) {
            int until = Math.min(c1, from + step);
            boolean inline = span > 0 && to.openRow(device, i, from, until);
            try {
                for (int j = from; j < until; j++) {
                    if (done == null || !done.contains(i, j)) {
                        pair(to, device, inline, i, j);
                    }
                    if (ordered && (done == null || !done.contains(j, i))) {
                        pair(to, device, inline, j, i); // f(item j, item i): the other orientation, next
                    }
                }
            } finally {
                if (inline) {
                    to.closeRow(device);
                }
            }
        }
    }

    private void pair(NodePipeline<K, R> to, int device, boolean inline, int a, int b) throws InterruptedException {
        if (beforeSubmit != null) {
            beforeSubmit.submit(device, a, b);
        }
        if (inline) {
            to.runInline(device, a, b);
        } else {
            to.submit(device, a, b);
        }
    }
}
