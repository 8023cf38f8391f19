package io.rocket.steal.cluster;

import io.rocket.core.ResultSink;
import io.rocket.core.summary.PerformanceModel;

import java.util.BitSet;

/**
 * Rank 0's view of the whole run: every result, local or streamed from other ranks, passes through here. A bitmap
 * of finished pairs makes duplicates harmless (each pair is written once) and tells when the run is complete.
 *
 * @param <K> key type
 * @param <R> result type
 */
final class ResultCollector<K, R> implements ResultSink<K, R> {
    private final ResultSink<K, R> sink;
    private final int n;
    private final long total;
    private final BitSet finished;
    private final Runnable onComplete;
    private long count;
    private long errors;

    ResultCollector(ResultSink<K, R> sink, int n, Runnable onComplete) {
        this.sink = sink;
        this.n = n;
        this.total = PerformanceModel.pairs(n);
        if (total > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(n + " items: more pairs than a cluster run tracks (2^31)");
        }
        this.finished = new BitSet((int) total);
        this.onComplete = onComplete;
    }

    private int index(int i, int j) {
        // Row-major index into the strict upper triangle.
        return (int) ((long) i * (2L * n - i - 1) / 2 + (j - i - 1));
    }

    /** Marks the pair; true the first time. */
    private boolean first(int i, int j, boolean failed) {
        synchronized (finished) {
            int bit = index(i, j);
            if (finished.get(bit)) {
                return false;
            }
            finished.set(bit);
            count++;
            if (failed) {
                errors++;
            }
            return true;
        }
    }

    /** Runs the completion action if every pair is in (it may run more than once; make it idempotent). */
    void checkComplete() {
        boolean complete;
        synchronized (finished) {
            complete = count == total;
        }
        if (complete) {
            onComplete.run();
        }
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

    long errors() {
        synchronized (finished) {
            return errors;
        }
    }

    long count() {
        synchronized (finished) {
            return count;
        }
    }
}
