package io.rocket.apps.phylogenetics;

import io.rocket.apps.generate.GeneratedDataOutput;
import io.rocket.core.RocketException;
import io.rocket.core.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code rocket generate phylogenetics}: proteomes evolved along a random tree ({@link PhyloGenerator}), one
 * gzipped FASTA file per taxon plus the true tree, so that a run's tree can be checked with {@code rocket
 * tree-compare}.
 */
@Command(name = "phylogenetics", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Writes T proteomes (taxonNN.faa.gz) evolved along a random Yule tree of root-to-tip depth D "
                + "substitutions per site (F81 model, Gamma(0.7) site rates) from a random root proteome of P "
                + "proteins, and the tree as true-tree.nwk. The same options give the same files."})
public final class PhyloGenerateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    GeneratedDataOutput output;

    @Option(names = "--taxa", paramLabel = "T", required = true, description = "Number of taxa (at least 2).")
    int taxa;

    @Option(names = "--depth", paramLabel = "D", defaultValue = "0.5",
            description = "Root-to-tip depth in substitutions per site. Default: ${DEFAULT-VALUE}.")
    double depth;

    @Option(names = "--proteins", paramLabel = "P", defaultValue = "" + PhyloGenerator.Options.DEFAULT_PROTEINS,
            description = "Proteins per proteome (lengths ~ Gamma(2, 150) in [50, 2000]). Default: ${DEFAULT-VALUE}.")
    int proteins;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Random seed. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Override
    public Integer call() {
        if (taxa < 2) {
            throw new UsageException("--taxa must be at least 2, got " + taxa);
        }
        if (!(depth > 0) || Double.isInfinite(depth)) {
            throw new UsageException("--depth must be a positive number, got " + depth);
        }
        if (proteins < 1) {
            throw new UsageException("--proteins must be at least 1, got " + proteins);
        }
        Path out = output.directory();
        PhyloGenerator.Result result;
        try {
            result = PhyloGenerator.generate(out, taxa, depth, proteins, seed);
        } catch (IOException e) {
            throw new RocketException("cannot write to " + out + ": " + e.getMessage(), e);
        }
        PrintWriter w = spec.commandLine().getOut();
        w.printf(Locale.ROOT, "wrote %d proteomes (%d proteins each, depth %s, seed %d) and %s to %s%n",
                result.proteomes().size(), proteins, depth, seed, result.treeFile().getFileName(), out);
        w.flush();
        return 0;
    }
}
