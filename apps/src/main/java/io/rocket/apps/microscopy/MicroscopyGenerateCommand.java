package io.rocket.apps.microscopy;

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
 * {@code rocket generate microscopy}: synthetic particles of a known template at random poses
 * ({@link MicroscopyGenerator}), with {@code truth.tsv} and {@code template.tsv} for checking a run.
 */
@Command(name = "microscopy", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Writes N particles (particle_NNN.json) of a 37-site template: each site kept with "
                + "probability DOL, Poisson(L) localizations per kept site with sigma ~ U(3, 10) nm and Gaussian "
                + "jitter of sigma, then a random rotation in [0, 360) degrees and shift in +-5 nm. truth.tsv holds "
                + "file, theta (degrees), tx, ty (nm) per particle; template.tsv the sites. The same options give "
                + "the same files."})
public final class MicroscopyGenerateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    GeneratedDataOutput output;

    @Option(names = "--particles", paramLabel = "N", required = true, description = "Number of particles (>= 2).")
    int particles;

    @Option(names = "--dol", paramLabel = "F", defaultValue = "0.7",
            description = "Degree of labelling: probability that a site is labelled. Default: ${DEFAULT-VALUE}.")
    double dol;

    @Option(names = "--localizations", paramLabel = "L",
            defaultValue = "" + MicroscopyGenerator.DEFAULT_LOCALIZATIONS,
            description = "Mean localizations per labelled site. Default: ${DEFAULT-VALUE}.")
    double localizations;

    @Option(names = "--format", paramLabel = "F", defaultValue = "json",
            description = "json or csv. Default: ${DEFAULT-VALUE}.")
    String format;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Random seed. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Override
    public Integer call() {
        if (particles < 2) {
            throw new UsageException("--particles must be at least 2, got " + particles);
        }
        if (!(dol > 0 && dol <= 1)) {
            throw new UsageException("--dol must be in (0, 1], got " + dol);
        }
        if (!(localizations > 0) || Double.isInfinite(localizations)) {
            throw new UsageException("--localizations must be a positive number, got " + localizations);
        }
        MicroscopyGenerator.Format f = switch (format.toLowerCase(Locale.ROOT)) {
            case "json" -> MicroscopyGenerator.Format.JSON;
            case "csv" -> MicroscopyGenerator.Format.CSV;
            default -> throw new UsageException("--format must be json or csv, got " + format);
        };
        Path out = output.directory();
        MicroscopyGenerator.Result result;
        try {
            result = MicroscopyGenerator.generate(out, new MicroscopyGenerator.Options(particles, dol, localizations,
                    seed, f), Template.standard());
        } catch (IOException e) {
            throw new RocketException("cannot write to " + out + ": " + e.getMessage(), e);
        }
        PrintWriter w = spec.commandLine().getOut();
        w.printf(Locale.ROOT, "wrote %d particles (dol %s, %s localizations per site, seed %d), truth.tsv and "
                + "template.tsv to %s%n", result.files().size(), dol, localizations, seed, out);
        w.flush();
        return 0;
    }
}
