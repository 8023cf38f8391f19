package io.rocket.results.reduce;

import io.rocket.core.Application;
import io.rocket.core.ResultSink;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The reduction where results end: on a single node, and on rank 0 of a cluster run, in front of the user's sink.
 * Pairs outside the score band are dropped as they come; pairs in the band go on at once, or, with top-k, are ranked
 * in one bounded heap per item ({@link PartnerHeaps}) and written at {@link #finish}, each kept pair once, so
 * rank 0 holds at most {@code items × K} results whatever the number of pairs. Failed pairs always go on. The
 * {@link DroppedPairs} given with the sink behind this one (a progress display) is told of every pair not written
 * now, dropped here or on another node: whoever builds the chain says who counts them, rather than this reduction
 * guessing it from the sink's type.
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class KeptPairs<K, R> implements ResultSink<K, R>, DroppedPairs {
    private final Application<K, R> app;
    private final List<K> keys;
    private final Reduction reduction;
    private final ResultSink<K, R> next;
    private final DroppedPairs notDelivered;
    private final PartnerHeaps heaps;
    private final LongAdder received = new LongAdder();
    private final LongAdder droppedElsewhere = new LongAdder();
    private final LongAdder kept = new LongAdder();
    private final LongAdder scoreFailures = new LongAdder();

    /**
     * A reduction in front of {@code next}.
     *
     * @param app          the application, whose {@code score} and {@code smallerIsBetter} rank the pairs
     * @param keys         the run's keys, in index order
     * @param reduction    what to keep, never null
     * @param next         where kept pairs and failures go
     * @param notDelivered told of the pairs not written to {@code next} now (a progress display counts them done),
     *                     or null when nobody asks
     */
    public KeptPairs(Application<K, R> app, List<K> keys, Reduction reduction, ResultSink<K, R> next,
                     DroppedPairs notDelivered) {
        this.app = app;
        this.keys = keys;
        this.reduction = reduction;
        this.next = next;
        this.notDelivered = notDelivered;
        this.heaps = reduction.hasTopK()
                ? new PartnerHeaps(keys.size(), reduction.topK(), app.smallerIsBetter(), true) : null;
    }

    @Override
    public void accept(int i, int j, K left, K right, R result) {
        received.increment();
        double score;
        try {
            score = app.score(result);
        } catch (RuntimeException e) { // an application's score() that fails fails the pair, not the run
            scoreFailures.increment();
            next.failed(i, j, left, right, Scores.failure(app, i, j, left, right, e));
            return;
        }
        if (reduction.inBand(score) && heaps == null) {
            kept.increment();
            next.accept(i, j, left, right, result);
            return;
        }
        if (reduction.inBand(score)) {
            heaps.offer(i, j, score, result);
        }
        if (notDelivered != null) {
            notDelivered.dropped(i, j, 1);
        }
    }

    @Override
    public void failed(int i, int j, K left, K right, Throwable error) {
        next.failed(i, j, left, right, error);
    }

    /** Pairs another node computed and dropped: nothing to rank, but they are done. */
    @Override
    public void dropped(int i, int fromJ, int count) {
        droppedElsewhere.add(count);
        if (notDelivered != null) {
            notDelivered.dropped(i, fromJ, count);
        }
    }

    /**
     * Writes the kept pairs of a top-k reduction to the sink behind this one, each once (a pair among the K best of
     * both its items too); nothing without top-k, whose pairs went on as they came. Call it once, after the last
     * result has arrived.
     */
    @SuppressWarnings("unchecked")
    public void finish() {
        if (heaps == null) {
            return;
        }
        heaps.forEachKept((i, j, score, result) -> {
            kept.increment();
            next.accept(i, j, keys.get(i), keys.get(j), (R) result);
        });
    }

    /**
     * Pairs whose result reached this reduction (computed here, or sent on by another node's {@link NodeFilter}).
     *
     * @return the count so far
     */
    public long received() {
        return received.sum();
    }

    /**
     * Pairs written to the sink behind this one.
     *
     * @return the count so far (for top-k, complete after {@link #finish})
     */
    public long kept() {
        return kept.sum();
    }

    /**
     * Pairs whose result had no score, reported as failed.
     *
     * @return the count so far
     */
    public long scoreFailures() {
        return scoreFailures.sum();
    }

    /**
     * The reduction's figures for the run summary: its settings, {@code pairs_kept}, {@code pairs_received} and
     * {@code pairs_dropped_on_nodes}.
     *
     * @return a new, ordered map of field name to value
     */
    public Map<String, Object> figures() {
        Map<String, Object> fields = reduction.describe();
        fields.put("pairs_kept", kept());
        fields.put("pairs_received", received());
        fields.put("pairs_dropped_on_nodes", droppedElsewhere.sum());
        return fields;
    }
}
