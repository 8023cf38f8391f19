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
}
