package io.rocket.apps.microscopy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Times the microscopy parse ({@link MicroscopyApp#parse}'s steps: {@link ParticleReader}, {@link DensityResampler}
 * and {@link ParticleSlot#write}) with the reader against the previous reader ({@link PreviousParticleReader}) side
 * by side in one JVM, for docs/benchmarks.md: particles generated at the
 * generator's defaults ({@link MicroscopyGenerator}, dol 0.7, 50 localizations a site) in JSON and in CSV, read from
 * direct buffers as the application reads its input, rounds alternating between before and after. Run after
 * {@code mvn -pl apps test-compile}: {@code java -cp apps/target/classes:apps/target/test-classes:<test classpath>
 * io.rocket.apps.microscopy.ParticleParseBench [PARTICLES [ROUNDS [before|after]]]}. With {@code before} or
 * {@code after} it times instead each particle's first parse in this JVM, JSON only, with one reader, as a run's
 * parses mostly are (a few files a thread): run it in a fresh JVM for each.
 */
public final class ParticleParseBench {

    private ParticleParseBench() {
    }

    /**
     * Prints the median time per particle of each step before and after, and the ratio of the whole parse.
     *
     * @param args particles (default 8), timed rounds (default 9), and {@code before} or {@code after} for the
     *             first parses of the one reader
     */
    public static void main(String[] args) throws Exception {
        int particles = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        String cold = args.length > 2 ? args[2] : null;
        for (MicroscopyGenerator.Format format : MicroscopyGenerator.Format.values()) {
            if (cold != null && format != MicroscopyGenerator.Format.JSON) {
                continue;
            }
            Path dir = Files.createTempDirectory("particle-bench");
            MicroscopyGenerator.Result generated = MicroscopyGenerator.generate(dir, new MicroscopyGenerator.Options(
                    particles, 0.7, MicroscopyGenerator.DEFAULT_LOCALIZATIONS, 1, format), Template.standard());
            ByteBuffer[] files = new ByteBuffer[particles];
            long bytes = 0;
            for (int k = 0; k < particles; k++) {
                byte[] content = Files.readAllBytes(generated.files().get(k));
                bytes += content.length;
                files[k] = ByteBuffer.allocateDirect(content.length).put(content).flip();
            }
            delete(dir);
            if (cold != null) {
                firstParses(cold, files);
                continue;
            }
            time(format + " (" + bytes / particles / 1024 + " KiB a file)", files, rounds);
        }
    }

    private static void time(String label, ByteBuffer[] files, int rounds) throws ParticleFormatException {
        RegistrationSettings settings = RegistrationSettings.defaults();
        ParticleReader reader = new ParticleReader();
        PreviousParticleReader oldReader = new PreviousParticleReader();
        DensityResampler resampler = new DensityResampler(settings.maxPoints(), settings.scale());
        Particle raw = new Particle(4096);
        Particle capped = new Particle(4096);
        ByteBuffer slot = ByteBuffer.allocateDirect((int) settings.slotBytes()).order(ByteOrder.LITTLE_ENDIAN);
        long[][] t = new long[6][rounds]; // read, resample, write: before, then after
        long points = 0;
        for (int r = -3; r < rounds; r++) { // 3 rounds of warm-up
            long[] sum = new long[6];
            for (ByteBuffer file : files) {
                long t0 = System.nanoTime();
                oldReader.read("p.json", file, raw);
                long t1 = System.nanoTime();
                resampler.resample(raw, capped);
                long t2 = System.nanoTime();
                ParticleSlot.write(capped, slot, settings.scale());
                long t3 = System.nanoTime();
                reader.read("p.json", file, raw);
                long t4 = System.nanoTime();
                resampler.resample(raw, capped);
                long t5 = System.nanoTime();
                ParticleSlot.write(capped, slot, settings.scale());
                long t6 = System.nanoTime();
                sum[0] += t1 - t0;
                sum[1] += t2 - t1;
                sum[2] += t3 - t2;
                sum[3] += t4 - t3;
                sum[4] += t5 - t4;
                sum[5] += t6 - t5;
                points += raw.size();
            }
            if (r >= 0) {
                for (int s = 0; s < 6; s++) {
                    t[s][r] = sum[s] / files.length;
                }
            }
        }
        double[] m = new double[6];
        for (int s = 0; s < 6; s++) {
            m[s] = median(t[s]) / 1e6;
        }
        double before = m[0] + m[1] + m[2];
        double after = m[3] + m[4] + m[5];
        System.out.printf(Locale.ROOT, "%s, %d localizations a file: before %.3f ms (read %.3f, resample %.3f,"
                        + " slot %.3f), after %.3f ms (read %.3f, resample %.3f, slot %.3f), ratio %.2f%n", label,
                points / ((long) (rounds + 3) * files.length), before, m[0], m[1], m[2], after, m[3], m[4], m[5],
                before / after);
    }

    private static void firstParses(String which, ByteBuffer[] files) throws ParticleFormatException {
        RegistrationSettings settings = RegistrationSettings.defaults();
        boolean before = which.equals("before");
        ParticleReader reader = new ParticleReader();
        PreviousParticleReader oldReader = new PreviousParticleReader();
        DensityResampler resampler = new DensityResampler(settings.maxPoints(), settings.scale());
        Particle raw = new Particle(4096);
        Particle capped = new Particle(4096);
        ByteBuffer slot = ByteBuffer.allocateDirect((int) settings.slotBytes()).order(ByteOrder.LITTLE_ENDIAN);
        long[] t = new long[files.length];
        for (int k = 0; k < files.length; k++) {
            long t0 = System.nanoTime();
            if (before) {
                oldReader.read("p.json", files[k], raw);
            } else {
                reader.read("p.json", files[k], raw);
            }
            resampler.resample(raw, capped);
            ParticleSlot.write(capped, slot, settings.scale());
            t[k] = System.nanoTime() - t0;
        }
        double total = 0;
        for (long v : t) {
            total += v;
        }
        System.out.printf(Locale.ROOT, "JSON first parses, %s: first %.3f ms, mean of %d %.3f ms, last %.3f ms%n",
                which, t[0] / 1e6, files.length, total / files.length / 1e6, t[files.length - 1] / 1e6);
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static void delete(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }
}
