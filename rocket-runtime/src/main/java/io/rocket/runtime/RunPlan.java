package io.rocket.runtime;

import io.rocket.core.Application;
import io.rocket.core.RocketException;
import io.rocket.results.journal.JournalOptions;
import io.rocket.results.journal.ResultLog;
import io.rocket.steal.PairLimit;
import io.rocket.steal.PairSpace;

import java.util.List;

/**
 * A run checked once, before anything is opened: the application's sizes and the options' ranges
 * ({@link RunSupport#validate}), a result codec where results travel or are kept, the pair space against the keys
 * and against what a record of done pairs can track ({@link PairLimit}), and the journal or store against the job
 * ({@link ResultLog#check}, on the node that keeps it). A command builds it before it opens its outputs, so a refused
 * run touches no file; {@link Rocket#run} builds it for a library caller.
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class RunPlan<K, R> {
    private final Application<K, R> app;
    private final List<K> keys;
    private final PairSpace space;
    private final RocketOptions options;

    private RunPlan(Application<K, R> app, List<K> keys, PairSpace space, RocketOptions options) {
        this.app = app;
        this.keys = List.copyOf(keys);
        this.space = space;
        this.options = options;
    }

    /**
     * Checks a run.
     *
     * @param <K>     key type
     * @param <R>     result type
     * @param app     the application
     * @param keys    the items, in the order that fixes their indices
     * @param space   the pairs to compute, of {@code keys.size()} items (taken in both orientations when the
     *                application is ordered)
     * @param options the runtime options, the cluster's included
     * @return the plan
     * @throws RocketException with one line for the user: a space of another number of items, a cluster run or a
     *                         kept run of an application without a result codec, more items than a record tracks,
     *                         unusable options, a journal or store of another job
     */
    public static <K, R> RunPlan<K, R> check(Application<K, R> app, List<K> keys, PairSpace space,
                                             RocketOptions options) {
        if (space.items() != keys.size()) {
            throw new RocketException("the pair space is of " + space.items() + " items, the run has "
                    + keys.size());
        }
        if (options.isCluster() && options.cluster().nodes() > 1 && app.resultCodec() == null) {
            throw new RocketException(app.getClass().getName() + " must implement resultCodec() to run on several "
                    + "nodes (its results travel to rank 0)");
        }
        RunSupport.validate(app, options);
        JournalOptions log = options.journal();
        PairSpace ordered = space.ordered(app.ordered());
        PairLimit.check(ordered, options.isCluster(), log == null ? null : log.option());
        if (log != null && (!options.isCluster() || options.cluster().rank() == 0)) {
            ResultLog.check(log, app); // the node that keeps it: before the outputs, so a refused run leaves them
        }
        return new RunPlan<>(app, keys, ordered, options);
    }

    /** The application. */
    Application<K, R> app() {
        return app;
    }

    /** The items. */
    List<K> keys() {
        return keys;
    }

    /** The pairs, in both orientations for an ordered application. */
    PairSpace space() {
        return space;
    }

    /** The options. */
    RocketOptions options() {
        return options;
    }
}
