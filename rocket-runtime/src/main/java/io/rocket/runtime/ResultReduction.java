package io.rocket.runtime;

import io.rocket.core.Application;
import io.rocket.core.ResultSink;
import io.rocket.core.summary.RunSummary;
import io.rocket.results.reduce.DroppedPairs;
import io.rocket.results.reduce.KeptPairs;
import io.rocket.results.reduce.NodeFilter;
import io.rocket.results.reduce.Reduction;

import java.util.List;

/**
 * Where a run's {@link RocketOptions#reduction() reduction} hooks into a node: the {@link KeptPairs} in front of the
 * user's sink (a single node, rank 0), the {@link NodeFilter} in front of the result stream (other ranks), and the
 * end of the run, when rank 0 writes what top-k kept and adds the figures to the summary. Without a reduction every
 * method passes its sink through, so the run is as before. With a result store ({@code --store}) the other ranks
 * send every result, so that rank 0 stores them all before its reduction: the store then holds every pair and a
 * later run can re-filter it, at the cost of the network traffic the nodes' filters would have saved.
 *
 * @param <K> key type
 * @param <R> result type
 */
final class ResultReduction<K, R> {
    private final Application<K, R> app;
    private final List<K> keys;
    private final Reduction reduction;
    /** With a result store every result must reach rank 0 to be stored, so only rank 0 reduces. */
    private final boolean onRankZeroOnly;
    private KeptPairs<K, R> kept;

    ResultReduction(Application<K, R> app, List<K> keys, RocketOptions options) {
        this.app = app;
        this.keys = keys;
        this.reduction = options.reduction();
        this.onRankZeroOnly = options.journal() != null && options.journal().store();
    }

    /**
     * The sink results end in: {@code sink} behind the reduction, or {@code sink} itself without one.
     *
     * @param sink    where kept results go
     * @param dropped told of every pair not passed on now (the progress), or null
     */
    ResultSink<K, R> last(ResultSink<K, R> sink, DroppedPairs dropped) {
        if (reduction == null) {
            return sink;
        }
        kept = new KeptPairs<>(app, keys, reduction, sink, dropped);
        return kept;
    }

    /** The reduction in front of the outputs, once {@link #last} made it; null without a reduction. */
    KeptPairs<K, R> kept() {
        return kept;
    }

    /** What a non-zero rank's pipeline writes to: {@code stream} behind the node's filter, or the stream itself. */
    <S extends ResultSink<K, R> & DroppedPairs> ResultSink<K, R> beforeStream(S stream) {
        return reduction == null || onRankZeroOnly ? stream : new NodeFilter<>(app, keys.size(), reduction, stream, stream);
    }

    /**
     * Every result is in: writes what top-k kept and adds the reduction's figures to {@code summary} (pairs whose
     * result had no score count as failed).
     */
    void finish(RunSummary summary) {
        if (kept == null) {
            return;
        }
        kept.finish();
        long failed = kept.scoreFailures();
        summary.errors += failed;
        summary.pairs -= failed;
        summary.reduction = kept.figures();
    }
}
