package io.rocket.results.journal;

import io.rocket.core.Application;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.core.summary.RunSummary;
import io.rocket.steal.PairSet;
import io.rocket.steal.PairSpace;

import java.util.List;
import java.util.function.Consumer;

/**
 * What keeps a run's results so that another run of the same job can take them instead of computing them: the run
 * journal ({@code --journal}, tied to the item list in order, {@link RunJournal}) or the result store
 * ({@code --store}, keyed by each item's identity, {@link ResultStore}). The runtime sees only this: the pairs
 * taken from earlier runs (which no node computes), the sink that records this run's results, and the figures it
 * adds to the summary. In a cluster run rank 0 keeps it.
 *
 * @param <K> key type
 * @param <R> result type
 */
public interface ResultLog<K, R> extends AutoCloseable {

    /**
     * Checks {@code options} against the application and what their directory holds, before any output is opened.
     *
     * @param options the journal or store settings
     * @param app     the application, which must define a result codec
     * @throws RocketException naming the problem in one line (no result codec, a journal where a store is asked
     *                         for, a journal to resume that is missing, ...)
     */
    static void check(JournalOptions options, Application<?, ?> app) {
        RecordLog.codecOf(app, options.store() ? "result store" : "journal");
        if (options.store()) {
            ResultStore.check(options, app);
        } else {
            RunJournal.check(options);
        }
    }

    /**
     * Opens the journal or the store that {@code options} name for a run of {@code app} over {@code keys} whose
     * results go to {@code sink}; results of earlier runs are replayed into the sink ({@link ResultSink#replay})
     * before this returns.
     *
     * @param options where and how to keep the results
     * @param app     the application; it must define a {@link Application#resultCodec()}
     * @param keys    the run's items in index order
     * @param space   the run's pairs (a store replays its stored pairs of this space only), or null for every pair
     * @param sink    where the run's results go
     * @param <K>     key type
     * @param <R>     result type
     * @return the open log
     * @throws RocketException when the application has no result codec, the directory holds another job's results,
     *                         or it cannot be used
     */
    static <K, R> ResultLog<K, R> open(JournalOptions options, Application<K, R> app, List<K> keys,
                                       PairSpace space, ResultSink<K, R> sink) {
        return options.store() ? ResultStore.open(options, app, keys, space, sink)
                : RunJournal.open(options, app, keys, sink);
    }

    /**
     * The pairs taken from earlier runs; not changed by this run.
     *
     * @return the pairs, possibly none
     */
    PairSet resumed();

    /**
     * The sink this run writes to: it records each result and hands it on.
     *
     * @return the recording sink
     */
    ResultSink<K, R> sink();

    /**
     * What to do when the results cannot be written (the run should stop: its results would not be kept).
     *
     * @param handler told the failure once, from the writer's thread
     */
    void onFailure(Consumer<Throwable> handler);

    /**
     * Adds the pairs taken from earlier runs, and the items they found failed, to this run's summary.
     *
     * @param summary this run's summary
     */
    void addTo(RunSummary summary);

    /**
     * Writes what is left. Call it once every result is in.
     *
     * @throws RocketException when the results could not be written
     */
    @Override
    void close();

    /** {@link #close} on the way out of a failed run: keeps what it can, throws nothing. */
    void closeQuietly();
}
