package io.rocket.apps.microscopy;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Writes synthetic particles with a known answer (apps.md §3): each particle keeps every site of the
 * {@link Template} with probability dol (degree of labelling), puts Poisson(λ) localizations on each kept site,
 * each with its own precision σ ~ U(3, 10) nm and a Gaussian jitter of that σ, and is then turned by a random
 * θ ∈ [0°, 360°) and shifted by t with tx, ty ~ U(−5, 5) nm. Its pose (template → particle, x ↦ R(θ)x + t) goes to
 * {@code truth.tsv}, the template's sites to {@code template.tsv}. A particle that would come out empty (possible at
 * small dol) is drawn again. The same options give the same files.
 */
public final class MicroscopyGenerator {
    /** Default mean localizations per kept site. */
    public static final double DEFAULT_LOCALIZATIONS = 50;
    static final double SIGMA_MIN = 3.0;
    static final double SIGMA_MAX = 10.0;
    static final double SHIFT = 5.0;

    /** File formats the generator writes. */
    public enum Format { JSON, CSV }

    /**
     * @param dol           probability that a site is labelled, in (0, 1]
     * @param localizations mean localizations per labelled site (Poisson)
     */
    public record Options(int particles, double dol, double localizations, long seed, Format format) {
    }

    /** The files written and the true poses, in file order. */
    public record Result(List<Path> files, List<Pose> poses) {
    }

    private MicroscopyGenerator() {
    }

    /** Generates the set into {@code dir} (created). */
    public static Result generate(Path dir, Options options, Template template) throws IOException {
        Files.createDirectories(dir);
        SplittableRandom random = new SplittableRandom(options.seed());
        List<Path> files = new ArrayList<>();
        List<Pose> poses = new ArrayList<>();
        Particle particle = new Particle(4096);
        int digits = Math.max(3, String.valueOf(options.particles() - 1).length());
        String extension = options.format() == Format.JSON ? ".json" : ".csv";
        for (int k = 0; k < options.particles(); k++) {
            Pose pose = new Pose(random.nextDouble(0, 2 * Math.PI), random.nextDouble(-SHIFT, SHIFT),
                    random.nextDouble(-SHIFT, SHIFT));
            do {
                draw(template, pose, options, random, particle);
            } while (particle.size() == 0);
            Path file = dir.resolve(String.format(Locale.ROOT, "particle_%0" + digits + "d%s", k, extension));
            write(file, particle, options.format());
            files.add(file);
            poses.add(pose);
        }
        writeTruth(dir.resolve("truth.tsv"), files, poses);
        writeTemplate(dir.resolve("template.tsv"), template);
        return new Result(files, poses);
    }

    /** One particle at {@code pose}. */
    static void draw(Template template, Pose pose, Options options, SplittableRandom random, Particle out) {
        out.clear();
        for (int s = 0; s < template.size(); s++) {
            if (random.nextDouble() >= options.dol()) {
                continue;
            }
            int count = poisson(options.localizations(), random);
            for (int k = 0; k < count; k++) {
                double sigma = random.nextDouble(SIGMA_MIN, SIGMA_MAX);
                double x = template.x(s) + sigma * gaussian(random);
                double y = template.y(s) + sigma * gaussian(random);
                out.add(pose.applyX(x, y), pose.applyY(x, y), sigma);
            }
        }
    }

    private static void write(Path file, Particle p, Format format) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            if (format == Format.CSV) {
                w.write("x,y,sigma\n");
                for (int k = 0; k < p.size(); k++) {
                    w.write(String.format(Locale.ROOT, "%.4f,%.4f,%.4f%n", p.x(k), p.y(k), p.sigma(k)));
                }
            } else {
                w.write("[\n");
                for (int k = 0; k < p.size(); k++) {
                    w.write(String.format(Locale.ROOT, "  {\"x\": %.4f, \"y\": %.4f, \"sigma\": %.4f}%s%n",
                            p.x(k), p.y(k), p.sigma(k), k + 1 < p.size() ? "," : ""));
                }
                w.write("]\n");
            }
        }
    }

    private static void writeTruth(Path file, List<Path> files, List<Pose> poses) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int k = 0; k < files.size(); k++) {
                Pose p = poses.get(k);
                w.write(String.format(Locale.ROOT, "%s\t%.6f\t%.6f\t%.6f%n", files.get(k).getFileName(),
                        Math.toDegrees(p.theta()), p.tx(), p.ty()));
            }
        }
    }

    private static void writeTemplate(Path file, Template template) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int k = 0; k < template.size(); k++) {
                w.write(String.format(Locale.ROOT, "%.4f\t%.4f%n", template.x(k), template.y(k)));
            }
        }
    }

    /** Knuth's method for small means, a rounded normal approximation above 200. */
    static int poisson(double mean, SplittableRandom random) {
        if (mean > 200) {
            return (int) Math.max(0, Math.round(mean + Math.sqrt(mean) * gaussian(random)));
        }
        double limit = Math.exp(-mean);
        double product = random.nextDouble();
        int count = 0;
        while (product > limit) {
            product *= random.nextDouble();
            count++;
        }
        return count;
    }

    /** A standard normal variate (Box–Muller, one of the pair). */
    static double gaussian(SplittableRandom random) {
        double u = random.nextDouble(Double.MIN_NORMAL, 1.0);
        double v = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }
}
