package io.rocket.apps.synthetic;

import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.testkit.SyntheticCheck;
import io.rocket.cli.ExitCode;
import io.rocket.cli.JobRunner;
import io.rocket.cli.OutputFormatMixin;
import io.rocket.cli.ResultNeutral;
import io.rocket.cli.ReductionOptions;
import io.rocket.results.reduce.Reduction;
import io.rocket.cli.RuntimeOptionsMixin;
import io.rocket.steal.PairSpace;
import io.rocket.core.DeviceKind;
import io.rocket.core.UsageException;
import io.rocket.core.summary.RunSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code rocket synthetic}: the runtime-test application with modelled costs and checkable results. */
@Command(name = "synthetic", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs the synthetic all-pairs workload: item i holds v(i) = splitmix64(seed + i), a pair's "
                + "result is v(i) XOR v(j) in hex. Costs are MEAN or MEAN±SD milliseconds (lognormal:MEAN±SD for "
                + "heavy tails)."})
public final class SyntheticCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @ResultNeutral
    @Option(names = "--items", paramLabel = "N", required = true, description = "Number of items.")
    int items;

    @ResultNeutral
    @Option(names = "--item-bytes", paramLabel = "B", defaultValue = "65536",
            description = "Bytes per item (at least 8). Default: ${DEFAULT-VALUE}.")
    int itemBytes;

    @ResultNeutral
    @Option(names = "--load-ms", paramLabel = "D", defaultValue = "0",
            converter = CostConverter.class, description = "Load (read + parse) cost per item.")
    Cost load;

    @ResultNeutral
    @Option(names = "--preprocess-ms", paramLabel = "D", defaultValue = "0",
            converter = CostConverter.class, description = "Preprocess kernel cost per item.")
    Cost preprocess;

    @ResultNeutral
    @Option(names = "--compare-ms", paramLabel = "D", defaultValue = "0",
            converter = CostConverter.class, description = "Compare kernel cost per pair.")
    Cost compare;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Seed. Default: ${DEFAULT-VALUE}.")
    long seed;

    @ResultNeutral
    @Option(names = "--verify", description = "Check every pair arrived once with the right value, or with --top-k, "
            + "--min-score or --max-score that exactly the pairs the formula says are kept arrived; exit 4 if not "
            + "(in a cluster run, rank 0 checks the whole run; on the sim device every result is 0).")
    boolean verify;

    @ResultNeutral // which pairs, as --against and --pairs: each pair's result is the same
    @Option(names = "--queries", paramLabel = "Q", defaultValue = "0", description = "Compare the first Q items (the "
            + "queries) with the other items (the references) only: a Q x (N - Q) rectangle of pairs instead of every "
            + "pair. 0 (the default): every pair.")
    int queries;

    @Mixin
    RuntimeOptionsMixin runtime;

    @Mixin
    OutputFormatMixin outputFormat;

    @Mixin
    ReductionOptions reduction;

    @Override
    public Integer call() throws Exception {
        if (items < 0) {
            throw new UsageException("--items must be at least 0, got " + items);
        }
        if (itemBytes < 8) {
            throw new UsageException("--item-bytes must be at least 8, got " + itemBytes);
        }
        if (queries < 0 || queries >= Math.max(1, items)) {
            throw new UsageException("--queries must be in 0.." + Math.max(0, items - 1) + ", got " + queries);
        }
        PairSpace space = queries == 0 ? PairSpace.triangle(items) : PairSpace.rectangle(items, queries, queries);
        SyntheticApp app = new SyntheticApp(new SyntheticApp.Config(items, itemBytes, load, preprocess, compare, seed));
        Reduction kept = reduction.reduction();
        SyntheticCheck check = new SyntheticCheck(seed, items, queries, kept == null ? SyntheticCheck.Keep.ALL
                : new SyntheticCheck.Keep(kept.topK(), kept.minScore(), kept.maxScore()),
                runtime.toRocketOptions().device().kind() != DeviceKind.SIM);
        // In a cluster run every kept result reaches rank 0, so rank 0 checks them all; the other ranks see only the
        // pairs they computed themselves and have nothing to check.
        boolean checking = verify && runtime.writesOutputs();
        RunSummary summary = JobRunner.run(app, app.keys(), space, runtime, outputFormat.settings(), reduction,
                SyntheticApp::hex, "result",
                spec.commandLine().getOut(),
                checking ? List.of(check) : List.of());
        if (checking) {
            String problem = check.problem();
            if (problem != null) {
                spec.commandLine().getErr().println("rocket: " + problem);
                return ExitCode.CHECK_FAILED.code();
            }
            spec.commandLine().getOut().println("verified: all " + check.count() + (reduction.reduction() == null ? "" : " kept") + " pairs once, values correct");
            spec.commandLine().getOut().flush();
        }
        return JobRunner.exitCode(summary);
    }
}
