package io.rocket.runtime;

import io.rocket.node.NodePipeline;
import io.rocket.node.TilePacker;
import io.rocket.steal.PairMask;
import io.rocket.steal.PairSubmitter;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Hands a worker's pairs to the node's pipeline, leaving out the pairs the run skips and adding the other
 * orientation of each pair for an ordered application. Where the device runs tiles ({@link NodePipeline#tileSpan})
 * a leaf's rows are packed into tiles by a {@link TilePacker}; otherwise (one pair a tile) each pair is one of the
 * pipeline's pair jobs.
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
        if (to.tileSpan(device) == 0) {
            pairs(to, device, i, c0, c1, done);
            return;
        }
        TilePacker<K, R> tiles = packer(to, device, done);
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
        if (to.tileSpan(device) == 0) {
            PairSubmitter.super.submitLeaf(device, r0, r1, c0, c1, descending, stop);
            return;
        }
        TilePacker<K, R> tiles = packer(to, device, skip.get());
        try {
            tiles.leaf(r0, r1, c0, c1, descending, stop);
            tiles.flush();
        } finally {
            tiles.abandon();
        }
    }

    private TilePacker<K, R> packer(NodePipeline<K, R> to, int device, PairMask done) {
        return new TilePacker<>(to, device, ordered, done == null ? null : done::contains,
                beforeSubmit == null ? null : beforeSubmit::submit);
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

    private void pair(NodePipeline<K, R> to, int device, int a, int b) throws InterruptedException {
        if (beforeSubmit != null) {
            beforeSubmit.submit(device, a, b);
        }
        to.submit(device, a, b);
    }
}
