package io.rocket.cluster;

import io.rocket.core.ResultSink;
import io.rocket.steal.PairSet;

/**
 * Rank 0's view of the whole run: every result, local or streamed from other ranks, passes through here. A bitmap
 * of finished pairs makes duplicates harmless (each pair is written once) and tells when the run is complete.
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class ResultCollector<K, R> implements ResultSink<K, R> {
    private final ResultSink<K, R> sink;
    private final PairSet finished;
    private final Runnable onComplete;
    private long count;
    private long errors;
    private long duplicates;

    /** @param finished pairs already done (resumed from a journal), to which this run's pairs are added */
    public ResultCollector(ResultSink<K, R> sink, PairSet finished, Runnable onComplete) {
        this.sink = sink;
        this.finished = finished;
        this.onComplete = onComplete;
    }

    /** Marks the pair; true the first time. */
    private boolean first(int i, int j, boolean failed) {
        synchronized (finished) {
            if (!finished.add(i, j)) {
                duplicates++;
                return false;
            }
            count++;
            if (failed) {
                errors++;
            }
            return true;
        }
    }

    /** Runs the completion action if every pair is in (it may run more than once; make it idempotent). */
    public void checkComplete() {
        if (finished.isComplete()) {
            onComplete.run();
        }
    }

    /** Every pair done so far, resumed ones included. */
    public PairSet finished() {
        return finished;
    }

    @Override
    public void accept(int i, int j, K left, K right, R result) {
        if (first(i, j, false)) {
            sink.accept(i, j, left, right, result);
            checkComplete();
        }
    }

    @Override
    public void failed(int i, int j, K left, K right, Throwable error) {
        if (first(i, j, true)) {
            sink.failed(i, j, left, right, error);
            checkComplete();
        }
    }

    public long errors() {
        synchronized (finished) {
            return errors;
        }
    }

    /** Pairs this run delivered (each once). */
    public long count() {
        synchronized (finished) {
            return count;
        }
    }

    /** Results that arrived for a pair already in: recomputed after a loss, or sent twice. */
    public long duplicates() {
        synchronized (finished) {
            return duplicates;
        }
    }
}
