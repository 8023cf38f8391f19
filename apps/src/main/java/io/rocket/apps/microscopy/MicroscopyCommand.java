package io.rocket.apps.microscopy;

import io.rocket.files.FileItemApplication;
import io.rocket.cli.OutputFile;
import io.rocket.cli.InputsMixin;
import io.rocket.cli.JobRunner;
import io.rocket.cli.OutputSettings;
import io.rocket.cli.PairSpaceMixin;
import io.rocket.cli.RuntimeOptionsMixin;
import io.rocket.core.DeviceKind;
import io.rocket.core.RocketException;
import io.rocket.core.UsageException;
import io.rocket.core.summary.RunSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code rocket microscopy DIR}: registers every pair of localization-microscopy particles (GMM-L2 cost maximised
 * by L-BFGS from several angles, Bhattacharyya score), streams the pair TSV, and on request fuses all particles
 * into one super-particle ({@link PoseGraph}, {@link FusedOutputs}). On generated data ({@code truth.tsv} in DIR)
 * it reports the fraction of pairs whose rotation is within 3° of the truth and the fused particle's resolution.
 */
@Command(name = "microscopy", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"All-to-all registration of localization-microscopy particles (Heydarian et al. 2018): one "
                + "particle per file in DIR (*.json: [{x, y, sigma}, ...]; *.csv: x,y,sigma; nm). Each pair (i, j) "
                + "gets the rigid transform x -> R(theta)x + t mapping particle i onto particle j and its "
                + "Bhattacharyya score; --fused/--fused-png overlay all particles into one super-particle."})
public final class MicroscopyCommand implements Callable<Integer> {
    private static final int MAX_IGNORED_NAMES = 5;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "Directory of particle files "
            + "(*.json, *.csv): a local path, file:, sftp:// or s3:// URI.")
    String dir;

    @Mixin
    InputsMixin inputs;

    @Option(names = "--scale", paramLabel = "S", defaultValue = "" + RegistrationSettings.DEFAULT_SCALE,
            description = "GMM scale s in nm (a coarse stage at 2s precedes it). Default: ${DEFAULT-VALUE}.")
    double scale;

    @Option(names = "--starts", paramLabel = "K", defaultValue = "" + RegistrationSettings.DEFAULT_STARTS,
            description = "Starting angles, evenly spaced over 360 degrees. Default: ${DEFAULT-VALUE}.")
    int starts;

    @Option(names = "--max-points", paramLabel = "N", defaultValue = "" + RegistrationSettings.DEFAULT_MAX_POINTS,
            description = "Cap on localizations per particle (density-weighted resampling above it). "
                    + "Default: ${DEFAULT-VALUE}.")
    int maxPoints;

    @OutputFile
    @Option(names = "--fused", paramLabel = "FILE", description = "Write the fused particle as CSV "
            + "(x,y,sigma,particle).")
    Path fused;

    @OutputFile
    @Option(names = "--fused-png", paramLabel = "FILE", description = "Write a density render of the fused particle "
            + "(PNG, 1 nm pixels).")
    Path fusedPng;

    /** {@code --against REFS}: query particles against references; {@code --pairs FILE}: listed pairs. */
    @Mixin
    PairSpaceMixin spaces;

    @Mixin
    RuntimeOptionsMixin runtime;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RegistrationSettings settings;
        try {
            settings = new RegistrationSettings(scale, starts, maxPoints);
        } catch (IllegalArgumentException e) {
            throw new RocketException(e.getMessage(), e);
        }
        DeviceKind kind = runtime.toRocketOptions().device().kind();
        if (kind != DeviceKind.CPU && kind != DeviceKind.CUDA) {
            throw new UsageException("microscopy has cpu and cuda kernels; use --device cpu or cuda (got "
                    + kind.id() + ")");
        }
        InputsMixin.Source from = inputs.source(dir, "particles");
        ParticleDirectory.Listing listing = ParticleDirectory.scan(from, spaces.hasReferences() ? 1 : 2);
        noteIgnored(listing.ignored(), err);
        InputsMixin.Source refSource = spaces.referenceSource();
        ParticleDirectory.Listing refs = refSource == null ? null : ParticleDirectory.scan(refSource, 1);
        PairSpaceMixin.Items<Path> run = spaces.resolve(listing.particles(),
                refs == null ? null : refs.particles(), MicroscopyCommand::name);
        boolean triangle = run.space().isEverything();
        if (!triangle && (fused != null || fusedPng != null)) {
            throw new UsageException("--fused and --fused-png need every pair of the particles: leave out "
                    + "--against and --pairs");
        }
        List<Path> files = run.items();
        MicroscopyApp app = new MicroscopyApp(settings, Math.max(listing.largestBytes(),
                refs == null ? 0 : refs.largestBytes()));
        out.printf(Locale.ROOT, "microscopy: %s; scale %s nm, %d starts, at most %d localizations per particle%n",
                run.describe("particle", from.name(), refSource == null ? null : refSource.name()), scale, starts,
                maxPoints);
        out.flush();
        RegistrationCollector collector = new RegistrationCollector(files.size());
        RunSummary summary = JobRunner.run(app, files, run.space(), runtime, OutputSettings.DEFAULTS,
                null, Registration::toTsv, Registration.COLUMNS, out, List.of(collector));
        if (runtime.writesOutputs()) {
            Set<Integer> failed = new HashSet<>();
            summary.failures.forEach(f -> failed.add(f.item()));
            TruthCheck truth = from.directory() == null ? null : TruthCheck.load(from.directory());
            if (truth != null) {
                reportPairs(files, collector, truth, out);
            }
            // Fusion places every particle by all its pairs: only a run of every pair has them.
            if (triangle && (fused != null || fusedPng != null || (truth != null && truth.hasTemplate()))) {
                fuse(files, failed, collector, truth, out, err);
            }
        }
        return JobRunner.exitCode(summary);
    }

    private static void reportPairs(List<Path> files, RegistrationCollector collector, TruthCheck truth,
                                    PrintWriter out) {
        int pairs = 0;
        int within = 0;
        double worst = 0;
        for (int i = 0; i < files.size(); i++) {
            for (int j = i + 1; j < files.size(); j++) {
                Registration r = collector.get(i, j);
                double e = r == null ? Double.NaN : truth.rotationError(name(files.get(i)), name(files.get(j)), r);
                if (!Double.isNaN(e)) {
                    pairs++;
                    within += e <= TruthCheck.TOLERANCE_DEGREES ? 1 : 0;
                    worst = Math.max(worst, e);
                }
            }
        }
        if (pairs > 0) {
            out.printf(Locale.ROOT, "truth: %d of %d pairs (%.1f%%) have their rotation within %.0f degrees of the "
                    + "truth (worst %.1f degrees)%n", within, pairs, 100.0 * within / pairs,
                    TruthCheck.TOLERANCE_DEGREES, worst);
            out.flush();
        }
    }

    private void fuse(List<Path> files, Set<Integer> failed, RegistrationCollector collector, TruthCheck truth,
                      PrintWriter out, PrintWriter err) {
        PoseGraph.Solution solution = PoseGraph.solve(collector);
        Particle[] particles = new Particle[files.size()];
        ParticleReader reader = new ParticleReader();
        for (int k = 0; k < files.size(); k++) {
            if (failed.contains(k) || solution.poses()[k] == null) {
                continue;
            }
            try {
                particles[k] = new Particle(1024);
                reader.read(name(files.get(k)), ByteBuffer.wrap(Files.readAllBytes(files.get(k))), particles[k]);
            } catch (IOException | ParticleFormatException e) {
                particles[k] = null;
                err.println("microscopy: " + e.getMessage() + " (left out of the fused particle)");
            }
        }
        FusedOutputs.Cloud cloud = FusedOutputs.fuse(particles, solution.poses());
        int placed = 0;
        for (Particle p : particles) {
            placed += p == null ? 0 : 1;
        }
        out.printf(Locale.ROOT, "fusion: %d of %d particles placed, %d localizations, reference %s%n", placed,
                files.size(), cloud.size(), name(files.get(solution.reference())));
        write(fused, "fused particle (CSV)", out, () -> FusedOutputs.writeCsv(cloud, fused));
        write(fusedPng, "fused particle render (PNG)", out, () -> FusedOutputs.writePng(cloud, fusedPng));
        if (truth != null && truth.hasTemplate() && cloud.size() > 0) {
            Pose reference = truth.pose(name(files.get(solution.reference())));
            if (reference != null) {
                double fusedRms = truth.rmsToSites(cloud, reference.inverse());
                double floor = trueFusionRms(files, particles, truth);
                int poseWithin = 0;
                for (int k = 0; k < files.size(); k++) {
                    Pose g = truth.pose(name(files.get(k)));
                    Pose a = solution.poses()[k];
                    if (g != null && a != null && particles[k] != null) {
                        double e = Math.toDegrees(Registrar.wrap(a.theta() - (reference.theta() - g.theta())));
                        poseWithin += Math.abs(e) <= TruthCheck.TOLERANCE_DEGREES ? 1 : 0;
                    }
                }
                out.printf(Locale.ROOT, "truth: %d of %d fused poses within %.0f degrees; resolution: RMS distance "
                        + "of localizations to their nearest template site %.2f nm (%.2f nm with the true poses)%n",
                        poseWithin, placed, TruthCheck.TOLERANCE_DEGREES, fusedRms, floor);
            }
        }
        out.flush();
    }

    /** The resolution figure with every particle placed by its true pose. */
    private static double trueFusionRms(List<Path> files, Particle[] particles, TruthCheck truth) {
        Pose[] poses = new Pose[particles.length];
        for (int k = 0; k < particles.length; k++) {
            Pose g = truth.pose(name(files.get(k)));
            poses[k] = g == null ? null : g.inverse();
        }
        return truth.rmsToSites(FusedOutputs.fuse(particles, poses), Pose.IDENTITY);
    }

    @FunctionalInterface
    private interface Writer {
        void write() throws IOException;
    }

    private static void write(Path file, String what, PrintWriter out, Writer writer) {
        if (file == null) {
            return;
        }
        try {
            writer.write();
        } catch (IOException e) {
            throw new RocketException("cannot write " + file + ": " + e.getMessage(), e);
        }
        out.println("wrote " + what + " to " + file);
    }

    private static String name(Path file) {
        return FileItemApplication.fileName(file);
    }

    private static void noteIgnored(List<String> ignored, PrintWriter err) {
        if (ignored.isEmpty()) {
            return;
        }
        List<String> shown = ignored.subList(0, Math.min(MAX_IGNORED_NAMES, ignored.size()));
        err.println("microscopy: note: ignoring " + (ignored.size() == 1 ? "1 entry that is not a particle file: "
                : ignored.size() + " entries that are not particle files: ") + String.join(", ", shown)
                + (ignored.size() > shown.size() ? ", ..." : ""));
        err.flush();
    }
}
