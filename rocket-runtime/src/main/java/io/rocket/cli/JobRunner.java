package io.rocket.cli;

import io.rocket.core.UsageException;
import io.rocket.core.Application;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.core.summary.RunSummary;
import io.rocket.runtime.ResultChain;
import io.rocket.runtime.Rocket;
import io.rocket.runtime.RunPlan;
import io.rocket.cluster.ClusterOptions;
import io.rocket.steal.PairSpace;
import io.rocket.results.journal.JournalOptions;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Runs an application from the command line: opens the pair output ({@link PairOutputs}), runs (on one node, or as one node of a cluster
 * run when {@code --nodes} is above 1), prints the summary, writes the JSON summary. In a cluster run only rank 0
 * writes the outputs. Shared by every application command so they all behave alike.
 */
public final class JobRunner {
    /** How often the pair outputs put what they hold in memory into their files (a run stopped by SIGKILL keeps those). */
    static final Duration WRITE_OUT_INTERVAL = Duration.ofSeconds(2);

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
        return run(app, keys, PairSpace.triangle(keys.size()), options, OutputSettings.DEFAULTS, null, format,
                resultName, out, extraSinks);
    }

    /**
     * Runs {@code app} on every pair {@code i < j} of {@code keys} as
     * {@link #run(Application, List, PairSpace, RuntimeOptionsMixin, OutputSettings, ReductionOptions, Function,
     * String, PrintWriter, List)} does.
     *
     * @param <K> the application's key type
     * @param <R> the application's result type
     * @param app the application, never null
     * @param keys the keys, in index order; every pair {@code i < j} is computed
     * @param options the parsed runtime and cluster options
     * @param outputs the output settings: the {@code .npy} number type, sparse or dense, layout, score
     * @param reduction the parsed reduction options, or null for none
     * @param format turns a result into the text of its TSV column; called from several threads at once
     * @param resultName the TSV header of the result column
     * @param out where the human-readable summary is printed
     * @param extraSinks further sinks that see every kept result on rank 0; not closed here
     * @return the run summary: the whole job's on rank 0, this node's own on the other ranks
     * @throws RocketException for unusable options, outputs, devices or journal (its message is meant for the user)
     * @throws Exception when the run fails otherwise (for example, the cluster cannot form)
     */
    public static <K, R> RunSummary run(Application<K, R> app, List<K> keys, RuntimeOptionsMixin options,
                                        OutputSettings outputs, ReductionOptions reduction,
                                        Function<R, String> format, String resultName,
                                        PrintWriter out, List<ResultSink<K, R>> extraSinks) throws Exception {
        return run(app, keys, PairSpace.triangle(keys.size()), options, outputs, reduction, format, resultName, out,
                extraSinks);
    }

    /**
     * Runs {@code app} on the pairs of {@code space} (see {@link PairSpaceMixin}), keeping only what
     * {@code reduction} asks for ({@code --top-k}, {@code --min-score}, {@code --max-score}: the outputs and the
     * extra sinks then see the kept pairs only, with top-k at the end of the run), with the pair output written as
     * {@code outputs} say (its format chosen by the {@code --output} file's suffix, see {@link PairOutputs}).
     *
     * @param <K> the application's key type
     * @param <R> the application's result type
     * @param app the application, never null
     * @param keys the keys, in index order
     * @param space the pairs to compute, of {@code keys.size()} items
     * @param options the parsed runtime and cluster options
     * @param outputs the output settings: the {@code .npy} number type, sparse or dense, layout, score
     * @param reduction the parsed reduction options, or null for none
     * @param format turns a result into the text of its TSV column; called from several threads at once
     * @param resultName the TSV header of the result column
     * @param out where the human-readable summary is printed
     * @param extraSinks further sinks that see every kept result on rank 0; not closed here
     * @return the run summary: the whole job's on rank 0, this node's own on the other ranks
     * @throws RocketException for unusable options (the reduction's included), outputs, devices or journal (its
     *         message is meant for the user)
     * @throws Exception when the run fails otherwise (for example, the cluster cannot form)
     */
    public static <K, R> RunSummary run(Application<K, R> app, List<K> keys, PairSpace space,
                                        RuntimeOptionsMixin options, OutputSettings outputs,
                                        ReductionOptions reduction, Function<R, String> format, String resultName,
                                        PrintWriter out, List<ResultSink<K, R>> extraSinks) throws Exception {
        // Reduced results are sparse: a .npy output then holds (i, j, score) records.
        OutputSettings files = reduction != null && reduction.reduction() != null ? outputs.withSparse(true) : outputs;
        PairOutputs.check(app, options.output(), options.errors(), files);
        var rocketOptions = options.toRocketOptions().withReduction(reduction == null ? null : reduction.reduction());
        String fingerprint = options.isCluster() ? options.fingerprint(keys.stream().map(app::label).toList()) : null;
        ClusterOptions cluster = options.isCluster() ? options.clusterOptions(
                reduction == null ? fingerprint : reduction.fingerprint(fingerprint)) : null;
        JournalOptions log = rocketOptions.journal();
        boolean shared = options.sharedOutput();
        if (shared) {
            checkShared(options, reduction, log, extraSinks);
            cluster = cluster.withFingerprint(cluster.fingerprint() + "/shared-output"); // every node writes, or none
        }
        // The whole run is checked before any output is opened: a refused run leaves them as they are.
        RunPlan<K, R> plan = RunPlan.check(app, keys, space, rocketOptions.withCluster(cluster));
        boolean writer = cluster == null || cluster.rank() == 0;
        JournalOptions journal = writer ? rocketOptions.journal() : null;
        boolean resume = journal != null && journal.resume();
        boolean journaled = journal != null && !journal.store(); // a run journal drives the output files
        SharedOutputFiles<K, R> sharedFiles = shared ? new SharedOutputFiles<>(app, keys, options.output(), format,
                resultName, files, cluster.nodes()) : null;
        // With a shared output, rank 0's own results go to its part (or into the one dense matrix).
        Path output = !writer ? null : shared ? sharedFiles.file(0) : options.output();
        if (journaled && OutputPaths.isStdout(output)) {
            throw new UsageException("--output - with --journal: a resumed journal cuts its files back, standard "
                    + "output cannot be; give a file (or use --store, which writes its outputs anew)");
        }
        DeferredOutputs<K, R> pairOutputs = new DeferredOutputs<>(() -> PairOutputs.open(app, keys, output,
                options.resultsOutput(), writer ? options.errors() : null, format, resultName, resume, files),
                output != null ? String.valueOf(output) : String.valueOf(options.errors()));
        if (sharedFiles != null && writer) {
            sharedFiles.rankZero(pairOutputs);
        }
        try (pairOutputs; var writing = writer ? pairOutputs.writeOutEvery(WRITE_OUT_INTERVAL) : null) {
            long total = space.ordered(app.ordered()).pairs();
            ProgressDisplay<K, R> progress = writer ? ProgressDisplay.open(total, options.progressInterval(),
                    options.progressOutput()) : null;
            // A store's run writes its files anew, the stored pairs included.
            var end = new ResultChain.End<>(pairOutputs, extraSinks, journal != null && journal.store(), progress);
            RunSummary summary = null;
            int rank = cluster == null ? 0 : cluster.rank();
            SignalStop.Stop stop = writer ? signal -> stopped(signal, pairOutputs, journaled, journal, output, progress,
                    total, sharedFiles) : shared ? signal -> sharedFiles.stopPart(signal, rank) : null;
            try (SignalStop signals = stop == null ? null : SignalStop.install(stop, () -> System.err)) {
                summary = Rocket.run(plan, end, sharedFiles);
            } finally {
                if (progress != null) {
                    progress.close(summary);
                }
            }
            pairOutputs.finish();
            if (sharedFiles != null && writer) {
                pairOutputs.close(); // rank 0's part is whole before the manifest gives its length
                sharedFiles.finish(true);
            }
            boolean verbose = options.verbose();
            String text = verbose ? summary.format() : summary.formatShort();
            out.print(cluster == null ? text : "rank " + cluster.rank() + ": " + text);
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
            if (pairOutputs.failure() != null) {
                throw pairOutputs.failure(); // after the summary: what was computed is still reported
            }
            return summary;
        } catch (IOException e) {
            throw new RocketException("cannot write " + e.getMessage(), e); // the message names the file first
        }
    }

    /**
     * Ends the outputs of a run a signal stopped and says, in one line, what is on disk and how to continue. With a
     * run journal, the journal ends the files itself as the JVM shuts down (it records how far they go).
     */
    private static String stopped(String signal, DeferredOutputs<?, ?> outputs, boolean journaled,
                                  JournalOptions journal, Path output, ProgressDisplay<?, ?> progress, long total,
                                  SharedOutputFiles<?, ?> shared) {
        StringBuilder b = new StringBuilder(CommandLines.PREFIX).append("stopped by ").append(signal);
        if (journaled) {
            done(b, progress, total);
            return b.append("; the journal in ").append(journal.dir()).append(" keeps the pairs computed, with ")
                    .append(output == null ? "the output files" : output).append(": run the same command with "
                            + "--resume to continue (only the missing pairs are computed)").toString();
        }
        try {
            outputs.stop(); // from here on, no result reaches the files: what they hold is what we count
        } catch (Exception e) {
            b.append("; ending ").append(output).append(" failed: ").append(e.getMessage());
        }
        long lines = outputs.resultsWritten();
        if (shared != null) {
            done(b, progress, total);
            try {
                Path parts = shared.finish(false);
                b.append(parts == null ? "; every node wrote its pairs into " + output
                        : "; the parts in " + parts + " hold the pairs each node wrote (" + SharedOutputFiles.MANIFEST
                        + " lists them)").append("; the same command again starts anew (a shared output keeps no "
                        + "store to continue from)");
            } catch (IOException e) {
                b.append("; cannot write the parts' manifest: ").append(e.getMessage());
            }
            return b.toString(); // a shared output takes no store: there is nothing else to continue from
        }
        if (lines >= 0 && output != null && !OutputPaths.isStdout(output)) {
            b.append(String.format(Locale.ROOT, "; %,d of %,d pairs are in %s", lines, total, output));
        } else {
            done(b, progress, total);
        }
        if (journal != null) {
            return b.append("; the store in ").append(journal.dir()).append(" keeps every pair computed: run the "
                    + "same command again to continue (only the missing pairs are computed)").toString();
        }
        return b.append("; to be able to continue a stopped run, give it --store DIR (run again with the same "
                + "--store, it computes only the missing pairs)").toString();
    }

    private static void done(StringBuilder b, ProgressDisplay<?, ?> progress, long total) {
        if (progress != null) {
            b.append(String.format(Locale.ROOT, " after %,d of %,d pairs", progress.done(), total));
        }
    }

    /**
     * Refuses {@code --shared-output} where results must meet on rank 0 anyway, before anything is opened: a journal
     * or store (rank 0 records every result), a reduction (rank 0 ranks and counts them), an application's derived
     * outputs (built from every result), and an output that is no file.
     */
    private static void checkShared(RuntimeOptionsMixin options, ReductionOptions reduction, JournalOptions log,
                                    List<?> extraSinks) {
        String why = null;
        if (options.output() == null || OutputPaths.isStdout(options.output())) {
            why = "it needs --output FILE in a directory every node sees";
        } else if (log != null) {
            why = log.store() ? "a result store keeps every result on rank 0; drop --store"
                    : "a journal keeps every result on rank 0; drop --journal";
        } else if (reduction != null && reduction.reduction() != null) {
            why = "--top-k, --min-score and --max-score are decided on rank 0, where the kept pairs meet";
        } else if (!extraSinks.isEmpty()) {
            why = "this command's derived outputs (clusters, a matrix, a tree...) are built from every result on "
                    + "rank 0; write them in a run of their own";
        }
        if (why != null) {
            throw new UsageException("--shared-output: " + why);
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
