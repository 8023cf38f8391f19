package io.rocket.cli;

import io.rocket.core.Application;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.core.summary.PerformanceModel;
import io.rocket.core.summary.RunSummary;
import io.rocket.runtime.Rocket;
import io.rocket.cluster.ClusterOptions;
import io.rocket.steal.journal.JournalOptions;
import io.rocket.steal.journal.RunJournal;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Runs an application from the command line: opens the TSV sink, runs (on one node, or as one node of a cluster
 * run when {@code --nodes} is above 1), prints the summary, writes the JSON summary. In a cluster run only rank 0
 * writes the outputs. Shared by every application command so they all behave alike.
 */
public final class JobRunner {
    /** Exit code of a run that finished but had failed pairs. */
    public static final int EXIT_PAIRS_FAILED = ExitCode.PAIRS_FAILED.code();

    private JobRunner() {
    }

    /**
     * Runs {@code app} on {@code keys}; extra sinks (matrix, clusters, tree builders) see every result too.
     *
     * @param <K> the application's key type
     * @param <R> the application's result type
     * @param app the application, never null
     * @param keys the keys, in index order; every pair {@code i < j} is computed
     * @param options the parsed runtime and cluster options: output, errors file, summary JSON, progress, journal
     * @param format turns a result into the text of its TSV column; called from several threads at once
     * @param resultName the TSV header of the result column, e.g. {@code distance}
     * @param out where the human-readable summary is printed (and progress lines without a terminal); flushed,
     *        not closed
     * @param extraSinks further sinks that see every result on rank 0, e.g. a matrix builder; may be empty, and
     *        are not closed here
     * @return the run summary: the whole job's on rank 0, this node's own on the other ranks
     * @throws RocketException for unusable options, devices or journal, a cluster run of an application without a
     *         result codec, or when an output cannot be written (its message is meant for the user)
     * @throws Exception when the run fails otherwise (for example, the cluster cannot form)
     */
    public static <K, R> RunSummary run(Application<K, R> app, List<K> keys, RuntimeOptionsMixin options,
                                        Function<R, String> format, String resultName, PrintWriter out,
                                        List<ResultSink<K, R>> extraSinks) throws Exception {
        return run(app, keys, options, null, format, resultName, out, extraSinks);
    }

    /**
     * As {@link #run(Application, List, RuntimeOptionsMixin, Function, String, PrintWriter, List)}, keeping only
     * what {@code reduction} asks for ({@code --top-k}, {@code --min-score}, {@code --max-score}): the TSV and the
     * extra sinks then see the kept pairs only (with top-k, at the end of the run).
     *
     * @param <K> the application's key type
     * @param <R> the application's result type
     * @param app the application, never null
     * @param keys the keys, in index order; every pair {@code i < j} is computed
     * @param options the parsed runtime and cluster options
     * @param reduction the parsed reduction options, or null for none
     * @param format turns a result into the text of its TSV column; called from several threads at once
     * @param resultName the TSV header of the result column
     * @param out where the human-readable summary is printed; flushed, not closed
     * @param extraSinks further sinks that see every kept result on rank 0; may be empty, not closed here
     * @return the run summary: the whole job's on rank 0, this node's own on the other ranks
     * @throws RocketException for unusable options (the reduction's included), devices or journal, or when an
     *         output cannot be written (its message is meant for the user)
     * @throws Exception when the run fails otherwise (for example, the cluster cannot form)
     */
    public static <K, R> RunSummary run(Application<K, R> app, List<K> keys, RuntimeOptionsMixin options,
                                        ReductionOptions reduction, Function<R, String> format, String resultName,
                                        PrintWriter out, List<ResultSink<K, R>> extraSinks) throws Exception {
        requireResultCodec(app, options.isCluster());
        var rocketOptions = options.toRocketOptions().withReduction(reduction == null ? null : reduction.reduction());
        String fingerprint = options.isCluster() ? options.fingerprint(keys.stream().map(app::label).toList()) : null;
        ClusterOptions cluster = options.isCluster() ? options.clusterOptions(
                reduction == null ? fingerprint : reduction.fingerprint(fingerprint)) : null;
        if (rocketOptions.reduction() != null && rocketOptions.journal() != null) {
            throw new RocketException("--top-k, --min-score and --max-score cannot be combined with --journal yet");
        }
        boolean writer = cluster == null || cluster.rank() == 0;
        JournalOptions journal = writer ? rocketOptions.journal() : null;
        if (journal != null) {
            RunJournal.check(journal); // before the outputs are opened: a refused run must leave them as they are
        }
        boolean resume = journal != null && journal.resume();
        try (TsvResultSink<K, R> tsv = new TsvResultSink<>(writer ? options.output() : null,
                writer ? options.errors() : null, app::label, format, resultName, resume)) {
            ResultSink<K, R> sink = extraSinks.isEmpty() ? tsv : new FanOutSink<>(tsv, extraSinks);
            ProgressDisplay<K, R> progress = writer ? ProgressDisplay.open(sink, PerformanceModel.pairs(keys.size()),
                    options.progressInterval(), options.progressOutput()) : null;
            RunSummary summary;
            try {
                ResultSink<K, R> shown = progress == null ? sink : progress;
                summary = Rocket.run(app, keys, rocketOptions.withCluster(cluster), shown);
            } finally {
                if (progress != null) {
                    progress.close();
                }
            }
            out.print(cluster == null ? summary.format() : "rank " + cluster.rank() + ": " + summary.format());
            out.flush();
            String loss = writer && cluster != null ? lossLine(summary) : null;
            if (loss != null) {
                PrintWriter err = options.progressOutput();
                err.println(loss);
                err.flush();
            }
            if (writer && options.summaryJson() != null) {
                try {
                    summary.writeJson(options.summaryJson());
                } catch (IOException e) {
                    throw new RocketException("cannot write " + options.summaryJson() + ": " + e.getMessage(), e);
                }
            }
            return summary;
        } catch (IOException e) {
            throw new RocketException("cannot write " + options.output() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Refuses a cluster run of an application without a {@link Application#resultCodec()} (its results travel to
     * rank 0), before any output is opened or any node joins.
     *
     * @param app the application
     * @param cluster whether the run is on several nodes
     * @throws RocketException when {@code cluster} and the application has no result codec
     */
    public static void requireResultCodec(Application<?, ?> app, boolean cluster) {
        if (cluster && app.resultCodec() == null) {
            throw new RocketException(app.getClass().getName() + " must implement resultCodec() to run on several "
                    + "nodes (its results travel to rank 0)");
        }
    }

    /**
     * Rank 0's one line about the nodes a cluster run lost, for the user and for the launchers that pass it on
     * (rocket-local, rocket.sbatch): which ranks, how many pairs were handed out again, and that the job is whole,
     * since the job's outcome is rank 0's. {@code null} when no node was lost.
     */
    static String lossLine(RunSummary summary) {
        if (!(summary.cluster.get("lost_ranks") instanceof Collection<?> lost) || lost.isEmpty()) {
            return null;
        }
        String ranks = lost.stream().map(String::valueOf).collect(Collectors.joining(", "));
        Object recomputed = summary.cluster.getOrDefault("recomputed_pairs", 0L);
        long total = summary.pairs + summary.errors;
        return String.format(Locale.ROOT, "rocket: lost rank%s %s; %,d pairs recomputed; all %,d pairs done%s",
                lost.size() == 1 ? "" : "s", ranks, ((Number) recomputed).longValue(), total,
                summary.errors == 0 ? "" : String.format(Locale.ROOT, " (%,d failed)", summary.errors));
    }

    /**
     * The exit code for a finished run.
     *
     * @param summary the summary {@link #run} returned
     * @return {@link ExitCode#OK}'s code when no pair failed, else {@link #EXIT_PAIRS_FAILED}
     */
    public static int exitCode(RunSummary summary) {
        return summary.errors == 0 ? ExitCode.OK.code() : EXIT_PAIRS_FAILED;
    }
}
