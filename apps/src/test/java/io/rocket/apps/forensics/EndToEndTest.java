package io.rocket.apps.forensics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Generate a photo set, score every pair in plain Java, cluster, and compare with the truth. */
class EndToEndTest {

    /** Lowest same-camera and highest cross-camera score of a matrix. */
    private static double[] separation(double[] s, int[] camera) {
        int n = camera.length;
        double lowestSame = Double.POSITIVE_INFINITY;
        double highestCross = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (camera[i] == camera[j]) {
                    lowestSame = Math.min(lowestSame, s[i * n + j]);
                } else {
                    highestCross = Math.max(highestCross, s[i * n + j]);
                }
            }
        }
        return new double[] {lowestSame, highestCross};
    }

    private static void clustersMatchTruth(Path dir, GeneratorOptions options) throws Exception {
        TruthTable truth = ForensicsGenerator.generate(dir, options);
        List<Path> photos = new ArrayList<>();
        for (String file : truth.files()) {
            photos.add(dir.resolve(file));
        }
        int[] camera = truth.cameraIds(truth.files());
        for (Metric metric : Metric.values()) {
            double[] s = SerialForensics.similarityMatrix(photos, metric);
            double[] sep = separation(s, camera);
            assertThat(sep[0]).as("%s lowest same-camera vs highest cross-camera %s", metric, sep[1])
                    .isGreaterThan(metric.defaultThreshold());
            assertThat(sep[1]).as("%s highest cross-camera", metric).isLessThan(metric.defaultThreshold());
            int[] clusters = AverageLinkage.cluster(s, photos.size()).cut(metric.defaultThreshold());
            assertThat(AdjustedRandIndex.of(clusters, camera)).as(metric.name()).isEqualTo(1.0);
        }
    }

    @Test
    void clustering_4cameras6images512_matchesTruthForBothMetrics(@TempDir Path dir) throws Exception {
        clustersMatchTruth(dir, new GeneratorOptions(4, 6, 512, 512, 0.02, 85, 2024));
    }

    @Test
    @Tag("slow")
    void clustering_4cameras6images1024WeakFingerprint_matchesTruthForBothMetrics(@TempDir Path dir)
            throws Exception {
        clustersMatchTruth(dir, new GeneratorOptions(4, 6, 1024, 1024, 0.01, 85, 2025));
    }
}
