package io.rocket.cluster;

import io.rocket.core.ResultSink;
import io.rocket.steal.PairSet;
import io.rocket.results.reduce.DroppedPairs;

/**
 * Rank 0's view of the whole run: every result, local or streamed from other ranks, passes through here. A bitmap
 * of finished pairs makes duplicates harmless (each pair is written once) and tells when the run is complete.
 * Pairs that another node's reduction dropped arrive as {@link DroppedPairs} runs: they are marked finished like
 * results, and the new ones are told to the {@link DroppedPairs} given with the sink, which whoever builds rank 0's
 * chain names (rank 0's reduction, a progress display), rather than this collector guessing it from the sink's type.
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class ResultCollector<K, R> implements ResultSink<K, R>, DroppedPairs {
    private final ResultSink<K, R> sink;
    /** Told of newly finished dropped pairs; null when nobody asks. */
    private final DroppedPairs droppedTo;
    private final PairSet finished;
    private final Runnable onComplete;
    private long count;
    private long errors;
    private long duplicates;
    private long dropped;

    /**
     * A collector in front of {@code sink}.
     *
     * @param sink       where each pair's first result or failure goes
     * @param droppedTo  told of each run of dropped pairs new to the run, or null when nobody asks
     * @param finished   pairs already done (resumed from a journal), to which this run's pairs are added
     * @param onComplete run when every pair is in
     */
    public ResultCollector(ResultSink<K, R> sink, DroppedPairs droppedTo, PairSet finished, Runnable onComplete) {
        this.sink = sink;
        this.droppedTo = droppedTo;
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

    @Override
    public void dropped(int i, int fromJ, int count) {
        synchronized (finished) {
            int run = 0; // the newly finished pairs just before j; a pair already in ends the run
            for (int j = fromJ; j < fromJ + count; j++) {
                if (finished.add(i, j)) {
                    run++;
                } else {
                    duplicates++;
                    tell(i, j - run, run);
                    run = 0;
                }
            }
            tell(i, fromJ + count - run, run);
        }
        checkComplete();
    }

    /** Counts a run of newly finished dropped pairs and tells whoever asked (under the finished-set lock). */
    private void tell(int i, int fromJ, int run) {
        if (run == 0) {
            return;
        }
        count += run;
        dropped += run;
        if (droppedTo != null) {
            droppedTo.dropped(i, fromJ, run);
        }
    }

    /**
     * Pairs other nodes computed and dropped, each counted once.
     *
     * @return the count so far
     */
    public long dropped() {
        synchronized (finished) {
            return dropped;
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
