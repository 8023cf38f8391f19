package io.rocket.apps.forensics;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A plain single-threaded run of the whole app without the runtime: load every photo once, keep all items in
 * memory, compare every pair, and return the full similarity matrix. It is the reference the runtime's results
 * are checked against, and fine for a few hundred photos; it goes through exactly the same
 * {@link ForensicsPipeline} steps and buffer layouts (little-endian direct buffers) as the runtime.
 */
public final class SerialForensics {

    private SerialForensics() {
    }

    /**
     * The n×n row-major similarity matrix of the photos (diagonal NaN, symmetric). The image size is taken from
     * the first photo; every other photo must have it.
     */
    public static double[] similarityMatrix(List<Path> photos, Metric metric) throws IOException {
        int n = photos.size();
        if (n == 0) {
            return new double[0];
        }
        int[] size;
        try (JpegGrayDecoder decoder = new JpegGrayDecoder()) {
            size = decoder.dimensions(label(photos.get(0)), ByteBuffer.wrap(Files.readAllBytes(photos.get(0))));
        }
        ForensicsPipeline pipeline = new ForensicsPipeline(size[0], size[1], metric);
        ByteBuffer gray = ByteBuffer.allocateDirect((int) pipeline.maxParsedBytes()).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer[] items = new ByteBuffer[n];
        for (int i = 0; i < n; i++) {
            String label = label(photos.get(i));
            pipeline.parse(label, ByteBuffer.wrap(Files.readAllBytes(photos.get(i))), gray);
            items[i] = ByteBuffer.allocateDirect((int) pipeline.maxItemBytes()).order(ByteOrder.LITTLE_ENDIAN);
            pipeline.preprocess(label, gray, items[i]);
        }
        double[] matrix = new double[n * n];
        ByteBuffer result = ByteBuffer.allocateDirect(ForensicsPipeline.RESULT_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            matrix[i * n + i] = Double.NaN;
            for (int j = i + 1; j < n; j++) {
                pipeline.compare(items[i], items[j], result);
                double score = ForensicsPipeline.score(result);
                matrix[i * n + j] = score;
                matrix[j * n + i] = score;
            }
        }
        return matrix;
    }

    private static String label(Path photo) {
        Path name = photo.getFileName();
        return name == null ? photo.toString() : name.toString();
    }
}
