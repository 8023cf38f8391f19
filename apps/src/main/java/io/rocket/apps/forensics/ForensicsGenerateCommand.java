package io.rocket.apps.forensics;

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
 * {@code rocket generate forensics}: photos from simulated cameras ({@link ForensicsGenerator}), each camera with
 * its own PRNU fingerprint, plus {@code truth.tsv}, so that a run's clusters can be checked against the truth.
 */
@Command(name = "forensics", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Writes C x K JPEG photos of random smooth scenes taken by C simulated cameras, each with its "
                + "own multiplicative PRNU fingerprint of strength sigma_K, shot noise and read noise, and "
                + "truth.tsv (file<TAB>camera). File names do not reveal the camera. The same options give the "
                + "same files."})
public final class ForensicsGenerateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    GeneratedDataOutput output;

    @Option(names = "--cameras", paramLabel = "C", defaultValue = "4", description = "Cameras. Default: ${DEFAULT-VALUE}.")
    int cameras;

    @Option(names = "--images-per-camera", paramLabel = "K", defaultValue = "6",
            description = "Photos per camera. Default: ${DEFAULT-VALUE}.")
    int imagesPerCamera;

    @Option(names = "--width", paramLabel = "W", defaultValue = "512", description = "Width in pixels. Default: ${DEFAULT-VALUE}.")
    int width;

    @Option(names = "--height", paramLabel = "H", defaultValue = "512", description = "Height in pixels. Default: ${DEFAULT-VALUE}.")
    int height;

    @Option(names = "--sigma-k", paramLabel = "S", defaultValue = "0.02",
            description = "Fingerprint strength (relative PRNU standard deviation): 0.02 is easy, 0.01 needs about a "
                    + "megapixel. Default: ${DEFAULT-VALUE}.")
    double sigmaK;

    @Option(names = "--quality", paramLabel = "Q", defaultValue = "85", description = "JPEG quality 1..100. Default: ${DEFAULT-VALUE}.")
    int quality;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Random seed. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Override
    public Integer call() {
        GeneratorOptions options;
        try {
            options = new GeneratorOptions(cameras, imagesPerCamera, width, height, sigmaK, quality, seed);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e); // an option out of range
        }
        Path out = output.directory();
        try {
            ForensicsGenerator.generate(out, options);
        } catch (IOException e) {
            throw new RocketException("cannot write to " + out + ": " + e.getMessage(), e);
        }
        PrintWriter w = spec.commandLine().getOut();
        w.printf(Locale.ROOT, "wrote %d photos (%d cameras x %d, %dx%d, sigma_K %s, quality %d, seed %d) and %s to %s%n",
                options.photos(), cameras, imagesPerCamera, width, height, sigmaK, quality, seed,
                TruthTable.FILE_NAME, out);
        w.flush();
        return 0;
    }
}
