package io.rocket.results.reduce;

import io.rocket.core.Application;
import io.rocket.core.ResultSink;

import java.util.concurrent.atomic.LongAdder;

/**
 * The reduction on a cluster node other than rank 0, applied to each result before it leaves the node: a pair
 * outside the score band is dropped; with top-k, a pair is sent on only when it enters this node's current top K of
 * one of its items. That is exact: a pair among the K best of an item over the whole run is among the K best of the
 * pairs this node has computed so far, so it is always sent, and rank 0, which ranks again what arrives, ends with
 * the same K. Dropped pairs go to {@link DroppedPairs} (the result stream acknowledges them in compact runs), so
 * rank 0 still learns that they are done. Failed pairs always go on.
 *
 * <p>Thread-safe; a pair allocates nothing here (the heaps are flat arrays, see {@link PartnerHeaps}).
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class NodeFilter<K, R> implements ResultSink<K, R> {
    private final Application<K, R> app;
    private final Reduction reduction;
    private final ResultSink<K, R> next;
    private final DroppedPairs dropped;
    /** This node's top K per item, partners and scores only; null without top-k. */
    private final PartnerHeaps heaps;
    private final LongAdder sent = new LongAdder();
    private final LongAdder drops = new LongAdder();

    /**
     * A filter in front of {@code next}.
     *
     * @param app       the application, whose {@code score} and {@code smallerIsBetter} rank the pairs
     * @param items     the items of the run
     * @param reduction what to keep, never null
     * @param next      where kept pairs and failures go
     * @param dropped   told of the pairs dropped
     */
    public NodeFilter(Application<K, R> app, int items, Reduction reduction, ResultSink<K, R> next,
                      DroppedPairs dropped) {
        this.app = app;
        this.reduction = reduction;
        this.next = next;
        this.dropped = dropped;
        this.heaps = reduction.hasTopK() ? new PartnerHeaps(items, reduction.topK(), app.smallerIsBetter(), false)
                : null;
    }

    @Override
    public void accept(int i, int j, K left, K right, R result) {
        double score;
        try {
            score = app.score(result);
        } catch (RuntimeException e) { // an application's score() that fails fails the pair, not the run
            next.failed(i, j, left, right, Scores.failure(app, i, j, left, right, e));
            return;
        }
        if (reduction.inBand(score) && (heaps == null || heaps.offer(i, j, score, null))) {
            sent.increment();
            next.accept(i, j, left, right, result);
        } else {
            drops.increment();
            dropped.dropped(i, j, 1);
        }
    }

    @Override
    public void failed(int i, int j, K left, K right, Throwable error) {
        next.failed(i, j, left, right, error);
    }

    /**
     * Results sent on with their value.
     *
     * @return the count so far
     */
    public long sent() {
        return sent.sum();
    }

    /**
     * Pairs dropped here.
     *
     * @return the count so far
     */
    public long dropped() {
        return drops.sum();
    }
}
