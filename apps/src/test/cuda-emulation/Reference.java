import io.rocket.apps.forensics.*;
import io.rocket.apps.phylogenetics.*;
import java.nio.*;
import java.nio.file.*;
import java.util.*;

/** Writes test inputs and the cpu kernels' items and scores for emulate.cpp (see ./run). */
public class Reference {
    static void write(Path p, ByteBuffer b) throws Exception { Files.write(p, Arrays.copyOf(b.array(), b.limit())); }
    public static void main(String[] a) throws Exception {
        Path d = Path.of(a[1]);
        Files.createDirectories(d);
        if (a[0].equals("forensics")) {
            int h = Integer.parseInt(a[2]), w = Integer.parseInt(a[3]);
            Random rnd = new Random(5);
            float[] k = new float[h * w];
            for (int i = 0; i < k.length; i++) k[i] = (float) (0.05 * rnd.nextGaussian());
            float[][] gray = new float[2][h * w];
            for (int m = 0; m < 2; m++) for (int r = 0; r < h; r++) for (int c = 0; c < w; c++) {
                double scene = 120 + 60 * Math.sin(r * 0.1 + m) * Math.cos(c * 0.07 * (m + 1));
                gray[m][r * w + c] = (float) Math.round(scene * (1 + k[r * w + c]) + 2 * rnd.nextGaussian());
            }
            for (int m = 0; m < 2; m++) {
                ByteBuffer g = ByteBuffer.allocate((int) PrnuLayout.grayBytes(h, w)).order(ByteOrder.LITTLE_ENDIAN);
                PrnuLayout.writeHeader(g, 0, PrnuLayout.KIND_GRAY, h, w);
                for (int i = 0; i < h * w; i++) g.putFloat(16 + 4 * i, gray[m][i]);
                write(d.resolve("gray" + (m + 1) + ".bin"), g);
            }
            for (Metric metric : Metric.values()) {
                ForensicsPipeline pipe = new ForensicsPipeline(w, h, metric);
                ByteBuffer[] items = new ByteBuffer[2];
                for (int m = 0; m < 2; m++) {
                    ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(d.resolve("gray" + (m + 1) + ".bin"))).order(ByteOrder.LITTLE_ENDIAN);
                    items[m] = ByteBuffer.allocate((int) pipe.maxItemBytes()).order(ByteOrder.LITTLE_ENDIAN);
                    pipe.preprocess("x", in, items[m]);
                }
                write(d.resolve("item1_" + metric.toString().toLowerCase() + ".bin"), items[0]);
                double score = pipe.similarity(items[0], items[1]);
                Files.writeString(d.resolve("score_" + metric.toString().toLowerCase() + ".txt"), Double.toString(score));
            }
        } else if (a[0].equals("microscopy")) {
            microscopy(d, Integer.parseInt(a[2]), Integer.parseInt(a[3]), Integer.parseInt(a[4]));
        } else if (a[0].equals("jaccard")) {
            // Two sorted distinct sets of 64-bit hashes, negative and positive, sharing about half their values; the
            // expected similarity is the example's own cpu kernel's (examples/jaccard, compiled by ./run).
            int n = Integer.parseInt(a[2]), m = Integer.parseInt(a[3]);
            Random rnd = new Random(n * 31L + m);
            long[] common = rnd.longs(Math.min(n, m) / 2).toArray();
            long[][] sets = new long[2][];
            int[] sizes = {n, m};
            for (int s = 0; s < 2; s++) {
                long[] v = Arrays.copyOf(common, sizes[s]);
                for (int i = common.length; i < v.length; i++) v[i] = rnd.nextLong();
                sets[s] = Arrays.stream(v).sorted().distinct().toArray(); // Java's order of long: signed
            }
            ByteBuffer[] bufs = new ByteBuffer[2];
            for (int s = 0; s < 2; s++) {
                bufs[s] = ByteBuffer.allocate(8 * sets[s].length).order(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < sets[s].length; i++) bufs[s].putLong(8 * i, sets[s][i]);
                write(d.resolve("set" + (s + 1) + ".bin"), bufs[s]);
            }
            java.lang.reflect.Method jaccard = Class.forName("org.example.jaccard.JaccardApp")
                    .getDeclaredMethod("jaccard", ByteBuffer.class, int.class, ByteBuffer.class, int.class);
            jaccard.setAccessible(true);
            Files.writeString(d.resolve("jaccard.txt"), Double.toString((Double) jaccard.invoke(null, bufs[0],
                    sets[0].length, bufs[1], sets[1].length)));
        } else {
            int k = Integer.parseInt(a[2]);
            int proteins = Integer.parseInt(a[3]);
            Random rnd = new Random(11);
            String letters = "ACDEFGHIKLMNPQRSTVWYBXZUJ";
            CompositionVectorBuilder builder = new CompositionVectorBuilder(k);
            ByteBuffer[] vecs = new ByteBuffer[2];
            StringBuilder base = new StringBuilder();
            for (int p = 0; p < proteins; p++) {
                base.append(">p").append(p).append('\n');
                int len = p % 7 == 0 ? rnd.nextInt(k + 1) + 1 : 20 + rnd.nextInt(300);
                for (int i = 0; i < len; i++) base.append(letters.charAt(rnd.nextInt(i % 3 == 0 ? 25 : 8)));
                base.append('\n');
            }
            for (int m = 0; m < 2; m++) {
                StringBuilder text = new StringBuilder(base);
                if (m == 1) for (int i = 0; i < text.length() / 10; i++) { int at = rnd.nextInt(text.length()); if (Character.isUpperCase(text.charAt(at))) text.setCharAt(at, letters.charAt(rnd.nextInt(20))); }
                byte[] bytes = text.toString().getBytes();
                ByteBuffer parsed = ByteBuffer.allocate((int) FastaParser.maxParsedBytes(bytes.length)).order(ByteOrder.LITTLE_ENDIAN);
                int n = new FastaParser().parse("x", ByteBuffer.wrap(bytes), parsed);
                parsed.limit(n);
                write(d.resolve("parsed" + (m + 1) + ".bin"), parsed);
                vecs[m] = ByteBuffer.allocate((int) CompositionVector.maxBytes(k, bytes.length)).order(ByteOrder.LITTLE_ENDIAN);
                int bytesOut = builder.build("x", parsed, vecs[m], new CvWorkspace());
                vecs[m].limit(bytesOut);
                if (m == 0) write(d.resolve("vec1.bin"), vecs[m]);
            }
            Files.writeString(d.resolve("distance.txt"), Double.toString(CvDistance.distance(vecs[0], vecs[1])));
        }
    }

    /**
     * Two particles of m and n localizations (clusters of points about a few sites, as the generator draws them),
     * their slots as parse writes them (scale 10 nm), a batch of poses, and the cpu kernels' sums for the batch on
     * the coarse bins, the fine bins and the full sets, and the scores: slot1.bin, slot2.bin, poses.bin,
     * cost0.bin, cost1.bin, cost2.bin (4 doubles a pose: C and its gradient), score.bin (1 a pose).
     */
    static void microscopy(Path d, int m, int n, int poses) throws Exception {
        Random rnd = new Random(m * 7919L + n);
        double scale = 10.0;
        int[] sizes = {m, n};
        ByteBuffer[] slots = new ByteBuffer[2];
        for (int s = 0; s < 2; s++) {
            io.rocket.apps.microscopy.Particle p = new io.rocket.apps.microscopy.Particle(sizes[s]);
            double turn = s * 0.4;
            for (int k = 0; k < sizes[s]; k++) {
                int site = k % 12;
                double sx = 25 * Math.cos(site * 0.52 + turn) + 3 * (site % 3);
                double sy = 25 * Math.sin(site * 0.52 + turn) - 2 * (site % 4);
                double sigma = 2 + 3 * rnd.nextDouble();
                p.add(100 + sx + sigma * rnd.nextGaussian(), -40 + sy + sigma * rnd.nextGaussian(), sigma);
            }
            slots[s] = ByteBuffer.allocate((int) io.rocket.apps.microscopy.ParticleSlot.bytes(sizes[s]))
                    .order(ByteOrder.LITTLE_ENDIAN);
            int bytes = (int) io.rocket.apps.microscopy.ParticleSlot.write(p, slots[s], scale);
            slots[s].limit(bytes);
            write(d.resolve("slot" + (s + 1) + ".bin"), slots[s]);
        }
        double[] batch = new double[3 * poses];
        for (int k = 0; k < poses; k++) {
            batch[3 * k] = 6 * rnd.nextGaussian();
            batch[3 * k + 1] = 6 * rnd.nextGaussian();
            batch[3 * k + 2] = 2 * Math.PI * k / poses - Math.PI + 0.1 * rnd.nextGaussian();
        }
        writeDoubles(d.resolve("poses.bin"), batch);
        // The cpu kernels are package-private: reach them as the runtime would, through their class.
        Class<?> kernels = Class.forName("io.rocket.apps.microscopy.MicroscopyCpuKernels");
        java.lang.reflect.Constructor<?> make = kernels.getDeclaredConstructor(
                io.rocket.apps.microscopy.RegistrationSettings.class);
        make.setAccessible(true);
        Object cpu = make.newInstance(new io.rocket.apps.microscopy.RegistrationSettings(scale, 16, Math.max(m, n)));
        java.lang.reflect.Method bind = kernels.getDeclaredMethod("bind", ByteBuffer.class, ByteBuffer.class);
        java.lang.reflect.Method costs = kernels.getDeclaredMethod("costs", int.class, double.class, double[].class,
                int.class, double[].class);
        java.lang.reflect.Method scores = kernels.getDeclaredMethod("scores", double[].class, int.class,
                double[].class);
        for (java.lang.reflect.Method method : new java.lang.reflect.Method[]{bind, costs, scores}) {
            method.setAccessible(true);
        }
        bind.invoke(cpu, slots[0], slots[1]);
        double[] sums = new double[4 * poses];
        for (int set = 0; set < 3; set++) {
            // The coarse stage runs at twice the scale.
            costs.invoke(cpu, set, set == 0 ? 2 * scale : scale, batch, poses, sums);
            writeDoubles(d.resolve("cost" + set + ".bin"), sums);
        }
        double[] score = new double[poses];
        scores.invoke(cpu, batch, poses, score);
        writeDoubles(d.resolve("score.bin"), score);
    }

    static void writeDoubles(Path p, double[] v) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (double x : v) b.putDouble(x);
        write(p, b);
    }
}
