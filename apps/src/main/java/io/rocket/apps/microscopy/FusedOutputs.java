package io.rocket.apps.microscopy;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The fused super-particle: every localization of every placed particle moved into the fused frame by its pose.
 * Written as CSV ({@code x,y,sigma,particle}, nm, particle = item index) and as a PNG density render: a histogram of
 * {@value #PIXEL_NM} nm pixels blurred with a Gaussian of {@value #BLUR_PIXELS} pixels, shown in grey levels scaled
 * to the densest pixel (square root, so sparse regions stay visible).
 */
public final class FusedOutputs {
    static final double PIXEL_NM = 1.0;
    static final double BLUR_PIXELS = 1.5;
    private static final int MARGIN = 10;
    private static final int MAX_SIDE = 4096;

    private FusedOutputs() {
    }

    /** The fused cloud: all localizations, in the fused frame, with their particle index. */
    public record Cloud(double[] x, double[] y, double[] sigma, int[] particle) {
        public int size() {
            return x.length;
        }
    }

    /** Moves the localizations of each placed particle by its pose ({@code particles[k]} null: not placed). */
    public static Cloud fuse(Particle[] particles, Pose[] poses) {
        int total = 0;
        for (int k = 0; k < particles.length; k++) {
            if (particles[k] != null && poses[k] != null) {
                total += particles[k].size();
            }
        }
        double[] x = new double[total];
        double[] y = new double[total];
        double[] s = new double[total];
        int[] id = new int[total];
        int m = 0;
        for (int k = 0; k < particles.length; k++) {
            if (particles[k] == null || poses[k] == null) {
                continue;
            }
            Particle p = particles[k];
            for (int q = 0; q < p.size(); q++) {
                x[m] = poses[k].applyX(p.x(q), p.y(q));
                y[m] = poses[k].applyY(p.x(q), p.y(q));
                s[m] = p.sigma(q);
                id[m++] = k;
            }
        }
        return new Cloud(x, y, s, id);
    }

    /** Writes the cloud as CSV. */
    public static void writeCsv(Cloud cloud, Path file) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("x,y,sigma,particle\n");
            for (int k = 0; k < cloud.size(); k++) {
                w.write(String.format(Locale.ROOT, "%.4f,%.4f,%.4f,%d%n", cloud.x()[k], cloud.y()[k],
                        cloud.sigma()[k], cloud.particle()[k]));
            }
        }
    }

    /** Renders the cloud's density as a grey-level PNG. */
    public static void writePng(Cloud cloud, Path file) throws IOException {
        if (cloud.size() == 0) {
            throw new IOException("no localizations to render");
        }
        double minX = Double.POSITIVE_INFINITY;
        double minY = Double.POSITIVE_INFINITY;
        double maxX = Double.NEGATIVE_INFINITY;
        double maxY = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < cloud.size(); k++) {
            minX = Math.min(minX, cloud.x()[k]);
            maxX = Math.max(maxX, cloud.x()[k]);
            minY = Math.min(minY, cloud.y()[k]);
            maxY = Math.max(maxY, cloud.y()[k]);
        }
        int width = (int) Math.min(MAX_SIDE, Math.ceil((maxX - minX) / PIXEL_NM) + 2 * MARGIN);
        int height = (int) Math.min(MAX_SIDE, Math.ceil((maxY - minY) / PIXEL_NM) + 2 * MARGIN);
        double[] histogram = new double[width * height];
        for (int k = 0; k < cloud.size(); k++) {
            int px = (int) ((cloud.x()[k] - minX) / PIXEL_NM) + MARGIN;
            // Image rows go down; y goes up.
            int py = height - 1 - ((int) ((cloud.y()[k] - minY) / PIXEL_NM) + MARGIN);
            if (px >= 0 && px < width && py >= 0 && py < height) {
                histogram[py * width + px]++;
            }
        }
        double[] blurred = blur(histogram, width, height);
        double max = 0;
        for (double v : blurred) {
            max = Math.max(max, v);
        }
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_BYTE_GRAY);
        for (int py = 0; py < height; py++) {
            for (int px = 0; px < width; px++) {
                int grey = max == 0 ? 0 : (int) Math.round(255 * Math.sqrt(blurred[py * width + px] / max));
                image.getRaster().setSample(px, py, 0, grey);
            }
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            if (!ImageIO.write(image, "png", out)) {
                throw new IOException("no PNG writer available");
            }
        }
    }

    /** Separable Gaussian blur, edges clamped. */
    private static double[] blur(double[] in, int width, int height) {
        int radius = (int) Math.ceil(3 * BLUR_PIXELS);
        double[] kernel = new double[2 * radius + 1];
        double sum = 0;
        for (int k = -radius; k <= radius; k++) {
            kernel[k + radius] = Math.exp(-k * k / (2 * BLUR_PIXELS * BLUR_PIXELS));
            sum += kernel[k + radius];
        }
        for (int k = 0; k < kernel.length; k++) {
            kernel[k] /= sum;
        }
        double[] rows = new double[in.length];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                double v = 0;
                for (int k = -radius; k <= radius; k++) {
                    v += kernel[k + radius] * in[y * width + Math.max(0, Math.min(width - 1, x + k))];
                }
                rows[y * width + x] = v;
            }
        }
        double[] out = new double[in.length];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                double v = 0;
                for (int k = -radius; k <= radius; k++) {
                    v += kernel[k + radius] * rows[Math.max(0, Math.min(height - 1, y + k)) * width + x];
                }
                out[y * width + x] = v;
            }
        }
        return out;
    }
}
