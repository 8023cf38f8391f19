package io.rocket.runtime;

import io.rocket.cluster.ResultCollector;
import io.rocket.cluster.ResultStream;
import io.rocket.core.ResultSink;
import io.rocket.results.journal.ResultLog;
import io.rocket.results.reduce.DroppedPairs;
import io.rocket.steal.PairSet;

import java.util.ArrayList;
import java.util.List;

/**
 * The one place a run's result chain is built: the stages a result passes after {@code postprocess}, in order and by
 * name, for the role the node plays.
 *
 * <pre>
 * one node      record → reduce → progress → outputs (and derived outputs)
 * rank 0        intake → record → reduce → progress → outputs (and derived outputs)
 * other ranks   filter → stream (→ the node's own part of a shared output)
 * </pre>
 *
 * <p>Every stage is optional but the ends: {@code record} is the run journal or result store, {@code reduce} the
 * reduction's {@code KeptPairs}, {@code progress} the command's display, {@code outputs} the pair output (written
 * anew from a store's replayed pairs too) fanned out to the application's derived outputs. The capabilities a stage
 * needs of another are typed, not probed: the intake tells the reduction, else the progress, of pairs done without a
 * result, and a rank 0 tells the {@link ProgressStage} which rank computed what. Results flow from several threads at once;
 * every stage is thread-safe.
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class ResultChain<K, R> {
    private final List<String> stages = new ArrayList<>();
    /** What the record stage hands results on to: the reduction, or what follows it. */
    private final ResultSink<K, R> afterRecord;
    /** Told of pairs done without a result on this node: the reduction, else the progress; null when neither. */
    private final DroppedPairs droppedTo;

    /**
     * The command's end of the chain: the stages after the reduction.
     *
     * @param <K>          key type
     * @param <R>          result type
     * @param outputs      the pair output, never null (a sink that writes nothing, for none)
     * @param derived      the application's derived outputs (a matrix, clusters, a tree), which see every kept result;
     *                     may be empty
     * @param replayWrites whether the outputs take a store's replayed pairs as new ones (a store's run writes its files
     *                     anew; a journal's resumed files hold them already)
     * @param progress     the progress display, or null
     */
    public record End<K, R>(ResultSink<K, R> outputs, List<ResultSink<K, R>> derived, boolean replayWrites,
                            ProgressStage<K, R> progress) {
        /**
         * A library caller's one sink, the whole end.
         *
         * @param <K>  key type
         * @param <R>  result type
         * @param sink where every result goes
         * @return the end
         */
        public static <K, R> End<K, R> of(ResultSink<K, R> sink) {
            return new End<>(sink, List.of(), false, null);
        }
    }

    private ResultChain(ResultReduction<K, R> reduction, End<K, R> end) {
        ProgressStage<K, R> progress = end.progress();
        ResultSink<K, R> outputs = end.replayWrites() ? new ReplayWritingSink<>(end.outputs()) : end.outputs();
        if (!end.derived().isEmpty()) {
            outputs = new FanOutSink<>(outputs, end.derived());
            stages.add("derived outputs");
        }
        stages.add(0, "outputs");
        ResultSink<K, R> next = outputs;
        if (progress != null) {
            progress.linkTo(outputs);
            next = progress;
            stages.add(0, "progress");
        }
        ResultSink<K, R> reduced = reduction.last(next, progress);
        if (reduced != next) {
            stages.add(0, "reduce");
        }
        this.afterRecord = reduced;
        this.droppedTo = reduced != next ? reduction.kept() : progress;
    }

    /**
     * The chain of a node that writes results: one node, or rank 0 of a cluster run.
     *
     * @param <K>       key type
     * @param <R>       result type
     * @param reduction the run's reduction (which passes results through without one)
     * @param end       the command's end of the chain
     * @return the chain; its record stage comes with {@link #recorded}
     */
    static <K, R> ResultChain<K, R> writing(ResultReduction<K, R> reduction, End<K, R> end) {
        return new ResultChain<>(reduction, end);
    }

    /**
     * What the record stage (the journal or store, opened with the node) hands results on to.
     *
     * @return the reduction, or the stage after it
     */
    ResultSink<K, R> afterRecord() {
        return afterRecord;
    }

    /**
     * The head of a writing node's chain below the intake: through the journal or store when the node keeps one.
     *
     * @param log the node's journal or store, opened with {@link #afterRecord} as its next stage; or null
     * @return where results enter
     */
    ResultSink<K, R> recorded(ResultLog<K, R> log) {
        if (log == null) {
            return afterRecord;
        }
        if (!stages.contains("record")) {
            stages.add(0, "record");
        }
        return log.sink();
    }

    /**
     * Rank 0: the intake every result of every rank passes, in front of {@code recorded}.
     *
     * @param recorded   what {@link #recorded} returned
     * @param finished   the pairs done before the run, to which this run's are added
     * @param onComplete run when every pair is in
     * @return the collector
     */
    ResultCollector<K, R> intake(ResultSink<K, R> recorded, PairSet finished, Runnable onComplete) {
        stages.add(0, "intake");
        return new ResultCollector<>(recorded, droppedTo, finished, onComplete);
    }

    /**
     * A rank above 0: the node's filter (when its reduction runs on the nodes) in front of its result stream.
     *
     * @param <K>       key type
     * @param <R>       result type
     * @param reduction the run's reduction
     * @param stream    the stream to rank 0
     * @param names     the chain's stage names, filled in
     * @return where the node's results enter
     */
    static <K, R> ResultSink<K, R> streaming(ResultReduction<K, R> reduction, ResultStream<K, R> stream,
                                             List<String> names) {
        ResultSink<K, R> head = reduction.beforeStream(stream);
        if (head != stream) {
            names.add("filter");
        }
        names.add("stream");
        return head;
    }

    /**
     * The stages in the order a result passes them, e.g. {@code [record, reduce, progress, outputs]}.
     *
     * @return the names, a copy
     */
    public List<String> stages() {
        return List.copyOf(stages);
    }
}
