package io.rocket.cli;

import io.rocket.core.RocketException;
import io.rocket.core.UsageException;
import io.rocket.runtime.RocketOptions;
import io.rocket.cluster.ClusterOptions;
import io.rocket.results.journal.JournalOptions;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The runtime options every application command takes (devices, caches, threads, scheduling, outputs).
 *
 * <p>The options of a node's resources and those of a cluster run are declared in two mixins of their own, mixed in
 * here in the place their options take in the help, so the command line reads as one list of runtime options.
 */
public final class RuntimeOptionsMixin {

    // Devices, caches, threads, read-ahead, disk cache and order: listed first in the help.
    @Mixin
    ResourceOptionsMixin resources = new ResourceOptionsMixin();

    @OutputFile(pairFormats = true)
    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write the pair results as TSV (i, j, left, right and the result column) as they arrive, "
                    + "written out every 2 s; FILE.tsv.gz: gzip; FILE.npy: a NumPy array; -: standard output (the "
                    + "command's other text then goes to stderr).")
    Path output;

    @OutputFile(pairFormats = true)
    @Option(names = "--errors", paramLabel = "FILE", description = "Write failed pairs as TSV (i, j, left, right, error).")
    Path errors;

    @OutputFile
    @Option(names = "--summary-json", paramLabel = "FILE", description = "Write the run summary as JSON.")
    Path summaryJson;

    @OutputFile
    @Option(names = "--trace", paramLabel = "FILE",
            description = "Write a Chrome/Perfetto trace (JSON; gzip when FILE ends in .gz).")
    Path trace;

    @Option(names = "--journal", paramLabel = "DIR",
            description = "Journal the results in DIR (made durable once a second; by rank 0 in a cluster run), so "
                    + "that a run that stops can be resumed with --resume.")
    Path journal;

    @Option(names = "--resume", description = "Continue the journal in --journal DIR: check that it is this job's "
            + "(same application, options and input files), cut the outputs back to what it recorded, and compute "
            + "only the missing pairs.")
    boolean resume;

    // The result store, listed right after the outputs.
    @Mixin
    StoreOptionsMixin store = new StoreOptionsMixin();

    // The cluster options, listed between the outputs and the progress options in the help.
    @Mixin
    ClusterOptionsMixin cluster = new ClusterOptionsMixin();

    // The live status, just before the progress options.
    @Mixin
    StatusOptionsMixin status = new StatusOptionsMixin();

    @Option(names = "--progress", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Show progress on stderr (rank 0 of a cluster run): a bar on a terminal, else a line every "
                    + "30 s and one at the end; --no-progress turns it off. Default: on.")
    boolean progress;

    @Option(names = {"-q", "--quiet"}, description = "Print only results and errors: no progress, summary or notes.")
    boolean quiet;

    @Option(names = {"-v", "--verbose"}, description = "After the summary line, print the run's performance "
            + "figures: loads and reuse, cache hits per level, inputs, read-ahead, mean step times, busy time per "
            + "resource (all of them are in --summary-json too).")
    boolean verbose;

    /** Where results go with {@code --output -}: the command's standard output, set before it runs. */
    PrintWriter results;

    // Tests and short runs: how often the progress line is printed without a terminal.
    @Option(names = "--progress-interval", paramLabel = "SECONDS", hidden = true, defaultValue = "30",
            description = "Seconds between two progress lines without a terminal; 0 turns progress off.")
    double progressIntervalSeconds;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** Options at their defaults; picocli sets the ones given. */
    public RuntimeOptionsMixin() {
    }

    /**
     * Whether this is a cluster run.
     *
     * @return true when {@code --nodes} is above 1
     */
    public boolean isCluster() {
        return cluster.isCluster();
    }

    /**
     * Whether every node of a cluster run writes its share of the pair output ({@code --shared-output}).
     *
     * @return true in a cluster run with {@code --shared-output}
     */
    public boolean sharedOutput() {
        return cluster.sharedOutput();
    }

    /**
     * Whether this node writes the run's outputs: always on one node, rank 0 only in a cluster run.
     *
     * @return true when this node writes the TSV, errors and summary files
     */
    public boolean writesOutputs() {
        return cluster.writesOutputs();
    }

    /**
     * The cluster options of this node; {@code fingerprint} must be the same on every node.
     *
     * @param fingerprint what identifies the job, usually {@link #fingerprint(List)}; nodes with different
     *        fingerprints refuse to run together
     * @return the options of this node's rank, with every host resolved
     * @throws RocketException naming the option when one is out of range, {@code --hosts} does not list
     *         {@code --nodes} hosts, a host cannot be resolved, or neither {@code --hosts} nor
     *         {@code --discovery-dir} is given
     */
    public ClusterOptions clusterOptions(String fingerprint) {
        return cluster.clusterOptions(fingerprint);
    }

    /**
     * The command and its application options at their effective values, one per line: what makes two runs the
     * same job, for the cluster's join check and a journal's identity. The runtime options (declared here and in the
     * mixins mixed in here), where the inputs are ({@link InputsMixin}), which pairs run ({@link PairSpaceMixin}: the
     * item labels and the space's digest identify those) and the output formats' options ({@link OutputFormatMixin})
     * are left out: they may differ between nodes, and between a run and its resumption elsewhere. So are an
     * application's output files (options whose parameter is labelled {@code FILE}): only rank 0 writes them, and a
     * resumed job may ask for more of them. The {@link ReductionOptions} are left out too: they change what is
     * written, not a pair's result (the cluster's fingerprint adds them, {@link ReductionOptions#fingerprint}).
     *
     * @return the command's qualified name, then one {@code --option=value} line per application option
     */
    public String jobOptions() {
        StringBuilder b = new StringBuilder(command.qualifiedName());
        Set<String> runtime = new HashSet<>();
        addOptionNames(RuntimeOptionsMixin.class, runtime);
        addOptionNames(InputsMixin.class, runtime);
        addOptionNames(PairSpaceMixin.class, runtime);
        addOptionNames(OutputFormatMixin.class, runtime);
        addOptionNames(ReductionOptions.class, runtime);
        for (CommandLine.Model.OptionSpec o : command.options()) {
            if (!o.usageHelp() && !o.versionHelp() && !runtime.contains(o.longestName())
                    && !o.paramLabel().equals("FILE") && !isOutputFile(o)) {
                b.append('\n').append(o.longestName()).append('=').append(String.valueOf((Object) o.getValue()));
            }
        }
        return b.toString();
    }

    /**
     * A digest of what must be equal on every node: the {@link #jobOptions}, how the work starts, and the item
     * labels in order.
     *
     * @param labels the item labels, in key order
     * @return the digest, the same on every node of one job
     */
    public String fingerprint(List<String> labels) {
        return ClusterOptions.fingerprint(jobOptions(), cluster.partitionedStart(), labels);
    }

    private static boolean isOutputFile(CommandLine.Model.OptionSpec option) {
        return option.userObject() instanceof Field f && f.isAnnotationPresent(OutputFile.class);
    }

    /** Adds the names of the options {@code mixin} declares, and those of the mixins it mixes in, to {@code names}. */
    private static void addOptionNames(Class<?> mixin, Set<String> names) {
        for (Field f : mixin.getDeclaredFields()) {
            Option o = f.getAnnotation(Option.class);
            if (o != null) {
                names.addAll(Arrays.asList(o.names()));
            }
            if (f.isAnnotationPresent(Mixin.class)) {
                addOptionNames(f.getType(), names);
            }
        }
    }

    /**
     * The journal or result store settings ({@code --journal}, {@code --resume}, {@code --store}), or null without
     * either.
     *
     * @return the journal directory, whether to resume, and the {@link #jobOptions()}; or the store's directory and
     *         the job options that change a result; null without {@code --journal} or {@code --store}
     * @throws RocketException when {@code --resume} is given without {@code --journal}, or {@code --store} with
     *         {@code --journal}
     */
    public JournalOptions journalOptions() {
        if (store.store() != null || store.compact || store.repair) {
            return store.apply(command, jobOptions(), journal == null ? null : new JournalOptions(journal, resume, ""));
        }
        if (journal == null) {
            if (resume) {
                throw new UsageException("--resume needs --journal DIR, the directory of the journal to continue");
            }
            return null;
        }
        return new JournalOptions(journal, resume, jobOptions());
    }

    /**
     * The options as the runtime takes them; checks ranges with messages naming the option.
     *
     * @return the runtime options, without the cluster options (see {@link #clusterOptions(String)})
     * @throws RocketException naming the option when one is out of range or needs another that is missing
     */
    public RocketOptions toRocketOptions() {
        RocketOptions options = resources.toRocketOptions(trace, this::jobOptions, this::journalOptions);
        return options.toBuilder().status(status.toStatusOptions(cluster::security, progressOutput(),
                cluster.isCluster() ? cluster.rank : 0)).build();
    }

    /** The range check of every runtime option: one line naming the option, the least value and the one given. */
    static void atLeast(String option, long value, long min) {
        if (value < min) {
            throw new UsageException(option + " must be at least " + min + ", got " + value);
        }
    }

    /**
     * The {@code --output} file: the TSV of results.
     *
     * @return the path as given, or null when results are not written
     */
    public Path output() {
        return output;
    }

    /**
     * The {@code --errors} file: the TSV of failed pairs.
     *
     * @return the path as given, or null when failed pairs are not written
     */
    public Path errors() {
        return errors;
    }

    /**
     * The {@code --summary-json} file: the run summary as JSON.
     *
     * @return the path as given, or null when no JSON summary is written
     */
    public Path summaryJson() {
        return summaryJson;
    }

    /**
     * How often progress is shown without a terminal, or null when it is off ({@code --no-progress}, interval 0).
     *
     * @return the interval, at least one millisecond, or null when progress is off
     * @throws RocketException when {@code --progress-interval} is not between 0 and 86400 seconds
     */
    public Duration progressInterval() {
        if (!(progressIntervalSeconds >= 0) || progressIntervalSeconds > 86_400) {
            throw new UsageException("--progress-interval must be 0 (off) to 86400 seconds, got "
                    + progressIntervalSeconds);
        }
        if (!progress || quiet || progressIntervalSeconds == 0) {
            return null;
        }
        return Duration.ofMillis(Math.max(1, Math.round(progressIntervalSeconds * 1000)));
    }

    /**
     * Whether the summary shows the performance figures ({@code --verbose}).
     *
     * @return true with {@code -v}
     * @throws io.rocket.core.UsageException when both {@code --quiet} and {@code --verbose} are given
     */
    public boolean verbose() {
        if (quiet && verbose) {
            throw new UsageException("--quiet and --verbose: give one of them");
        }
        return verbose;
    }

    /**
     * Where the results go with {@code --output -}.
     *
     * @return the command's standard output as it was before {@link ConsoleRouting} moved the command's own text away
     *         from it; an auto-flushing writer on {@link System#out} outside picocli
     */
    public PrintWriter resultsOutput() {
        return results != null ? results : new PrintWriter(System.out, true);
    }

    /**
     * Where progress goes: the command's error stream (stderr), so that stdout and pipes stay clean.
     *
     * @return the command's error writer, or an auto-flushing writer on {@link System#err} outside picocli
     */
    public PrintWriter progressOutput() {
        return command != null ? command.commandLine().getErr() : new PrintWriter(System.err, true);
    }
}
