package io.rocket.apps.forensics;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * Writes a seeded synthetic photo set with known cameras (apps.md §1 "Synthetic data"): gray JPEGs plus
 * {@code truth.tsv}.
 *
 * <p>Per photo, the scene I0 is a smooth random field (white noise blurred with σ drawn from 8–40 px, stretched to
 * 40–210, see {@link SmoothField}) with 2–4 flat rectangles of random grey levels painted on it. Per camera, the
 * fingerprint K ~ N(0, σ_K²) is drawn independently per pixel. A pixel is clip(round(Poisson(I0·(1+K)/g)·g +
 * N(0, 2²)), 0, 255) with gain g = 0.25: shot noise in photo-electrons, then read noise in grey levels. Poisson
 * draws with a mean of 50 or more (always, since I0 ≥ 40 gives a mean ≥ ~160) use the normal approximation
 * round(λ + √λ·z), exact to well under a grey level at these means and many times faster than exact sampling;
 * smaller means are sampled exactly. The photo is then encoded by ImageIO at the given quality.
 *
 * <p>Files are named {@code img_0000.jpg} … in a seeded random order, so neither names nor order reveal the
 * camera. Every random draw derives from the seed (one stream per camera and per photo), so a set is reproducible
 * whatever the order of generation.
 */
public final class ForensicsGenerator {

    /** Conversion gain g in grey levels per photo-electron. */
    public static final double GAIN = 0.25;
    /** Standard deviation of the read noise, in grey levels. */
    public static final double READ_NOISE = 2.0;

    private ForensicsGenerator() {
    }

    /** Convenience for {@link #generate(Path, GeneratorOptions)}. */
    public static TruthTable generate(Path outDir, int cameras, int imagesPerCamera, int width, int height,
            double sigmaK, int quality, long seed) throws IOException {
        return generate(outDir, new GeneratorOptions(cameras, imagesPerCamera, width, height, sigmaK, quality, seed));
    }

    /** Writes the set into {@code outDir} (created if needed) and returns its truth table (also written). */
    public static TruthTable generate(Path outDir, GeneratorOptions options) throws IOException {
        Files.createDirectories(outDir);
        int total = options.photos();
        int[] slot = shuffledSlots(total, new SplittableRandom(mix(options.seed(), 0x5EED)));
        String[] files = new String[total];
        String[] cameraOf = new String[total];
        int n = options.width() * options.height();
        byte[] pixels = new byte[n];
        for (int cam = 0; cam < options.cameras(); cam++) {
            float[] fingerprint = fingerprint(n, options.sigmaK(), new SplittableRandom(mix(options.seed(), cam)));
            String camera = String.format("cam%02d", cam);
            for (int j = 0; j < options.imagesPerCamera(); j++) {
                int photo = cam * options.imagesPerCamera() + j;
                SplittableRandom random = new SplittableRandom(mix(options.seed(), 1_000_000L + photo));
                float[] scene = scene(options.height(), options.width(), random);
                expose(scene, fingerprint, pixels, random);
                String name = String.format("img_%04d.jpg", slot[photo]);
                writeJpeg(outDir.resolve(name), pixels, options.width(), options.height(), options.quality());
                files[slot[photo]] = name;
                cameraOf[slot[photo]] = camera;
            }
        }
        TruthTable truth = new TruthTable(List.of(files), List.of(cameraOf));
        truth.write(outDir);
        return truth;
    }

    /** The scene I0 of one photo: a smooth field in [40, 210] with a few flat rectangles. */
    static float[] scene(int h, int w, SplittableRandom random) {
        double sigma = 8 + 32 * random.nextDouble();
        float[] field = SmoothField.generate(h, w, sigma, 40, 210, random);
        int rectangles = 2 + random.nextInt(3);
        for (int k = 0; k < rectangles; k++) {
            int rh = Math.max(1, h / 16 + random.nextInt(Math.max(1, h / 4 - h / 16)));
            int rw = Math.max(1, w / 16 + random.nextInt(Math.max(1, w / 4 - w / 16)));
            int r0 = random.nextInt(h - rh + 1);
            int c0 = random.nextInt(w - rw + 1);
            float value = (float) (40 + 170 * random.nextDouble());
            for (int r = r0; r < r0 + rh; r++) {
                java.util.Arrays.fill(field, r * w + c0, r * w + c0 + rw, value);
            }
        }
        return field;
    }

    /** K ~ N(0, σ_K²) per pixel. */
    static float[] fingerprint(int n, double sigmaK, SplittableRandom random) {
        float[] k = new float[n];
        for (int i = 0; i < n; i++) {
            k[i] = (float) (sigmaK * random.nextGaussian());
        }
        return k;
    }

    /** Pixel = clip(round(Poisson(I0·(1+K)/g)·g + N(0, 2²))). */
    static void expose(float[] scene, float[] fingerprint, byte[] out, SplittableRandom random) {
        for (int i = 0; i < scene.length; i++) {
            double lambda = scene[i] * (1.0 + fingerprint[i]) / GAIN;
            double value = poisson(lambda, random) * GAIN + READ_NOISE * random.nextGaussian();
            long grey = Math.round(value);
            out[i] = (byte) (grey < 0 ? 0 : (grey > 255 ? 255 : grey));
        }
    }

    /** A Poisson draw: normal approximation for λ ≥ 50, exact (product of uniforms) below. */
    static long poisson(double lambda, SplittableRandom random) {
        if (lambda <= 0) {
            return 0;
        }
        if (lambda >= 50) {
            return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * random.nextGaussian()));
        }
        double limit = Math.exp(-lambda);
        double product = random.nextDouble();
        long count = 0;
        while (product > limit) {
            product *= random.nextDouble();
            count++;
        }
        return count;
    }

    private static void writeJpeg(Path path, byte[] pixels, int w, int h, int quality) throws IOException {
        BufferedImage image = new BufferedImage(w, h, BufferedImage.TYPE_BYTE_GRAY);
        byte[] data = ((DataBufferByte) image.getRaster().getDataBuffer()).getData();
        System.arraycopy(pixels, 0, data, 0, w * h);
        Iterator<ImageWriter> writers = ImageIO.getImageWritersByFormatName("jpeg");
        if (!writers.hasNext()) {
            throw new IOException("no ImageIO JPEG writer in this JVM");
        }
        ImageWriter writer = writers.next();
        try (OutputStream file = Files.newOutputStream(path);
                ImageOutputStream out = new MemoryCacheImageOutputStream(file)) {
            ImageWriteParam param = writer.getDefaultWriteParam();
            param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            param.setCompressionQuality(quality / 100f);
            writer.setOutput(out);
            writer.write(null, new IIOImage(image, null, null), param);
        } finally {
            writer.dispose();
        }
    }

    /** A seeded random permutation of 0..n−1 (Fisher–Yates). */
    private static int[] shuffledSlots(int n, SplittableRandom random) {
        int[] slot = new int[n];
        for (int i = 0; i < n; i++) {
            slot[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = slot[i];
            slot[i] = slot[j];
            slot[j] = t;
        }
        return slot;
    }

    /** SplitMix64 finalizer of seed and stream number: independent seeds for each random stream. */
    static long mix(long seed, long stream) {
        long z = seed + 0x9E3779B97F4A7C15L * (stream + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
