package io.rocket.apps.forensics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForensicsPipelineTest {

    private static ByteBuffer slot(long bytes) {
        return ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void steps_sameAndOtherCamera_scoreAsExpectedAndMetricsAgree(@TempDir Path dir) throws Exception {
        TruthTable truth = ForensicsGenerator.generate(dir, 2, 2, 192, 128, 0.03, 90, 3);
        String first = truth.files().get(0);
        String same = null;
        String other = null;
        for (String f : truth.files().subList(1, 4)) {
            if (truth.cameraOf(f).equals(truth.cameraOf(first))) {
                same = f;
            } else {
                other = f;
            }
        }
        double[] pce = new double[2];
        double[] ncc = new double[2];
        for (Metric metric : Metric.values()) {
            ForensicsPipeline pipeline = new ForensicsPipeline(192, 128, metric);
            ByteBuffer[] items = new ByteBuffer[3];
            String[] names = {first, same, other};
            for (int i = 0; i < 3; i++) {
                ByteBuffer gray = slot(pipeline.maxParsedBytes());
                long parsed = pipeline.parse(names[i], ByteBuffer.wrap(Files.readAllBytes(dir.resolve(names[i]))), gray);
                assertThat(parsed).isEqualTo(pipeline.maxParsedBytes());
                items[i] = slot(pipeline.maxItemBytes());
                assertThat(pipeline.preprocess(names[i], gray, items[i])).isEqualTo(pipeline.maxItemBytes());
            }
            ByteBuffer result = slot(ForensicsPipeline.RESULT_BYTES + 8);
            result.position(8); // results are written at the position, which is left alone
            double[] scores = metric == Metric.PCE ? pce : ncc;
            pipeline.compare(items[0], items[1], result);
            scores[0] = ForensicsPipeline.score(result);
            pipeline.compare(items[0], items[2], result);
            scores[1] = ForensicsPipeline.score(result);
            assertThat(result.position()).isEqualTo(8);
            assertThat(scores[0]).isGreaterThan(metric.defaultThreshold());
            assertThat(scores[1]).isLessThan(metric.defaultThreshold());
        }
        // both metrics see the same correlation: PCE ≈ n·NCC² (to within the energy estimate's spread)
        assertThat(pce[0] / (192.0 * 128 * ncc[0] * ncc[0])).isCloseTo(1.0, within(0.3));
    }

    @Test
    void parse_photoOfAnotherSize_failsForThatPhoto(@TempDir Path dir) throws Exception {
        TruthTable truth = ForensicsGenerator.generate(dir, 1, 1, 64, 64, 0.02, 90, 1);
        ForensicsPipeline pipeline = new ForensicsPipeline(96, 64, Metric.PCE);
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(dir.resolve(truth.files().get(0))));
        assertThatThrownBy(() -> pipeline.parse("x.jpg", bytes, slot(pipeline.maxParsedBytes())))
                .isInstanceOf(PhotoFormatException.class).hasMessageStartingWith("x.jpg: image is 64x64");
    }

    @Test
    void configure_singleThread_isUsedAndTransformsStillWork() {
        int before = FftThreading.threads();
        try {
            FftThreading.configure(1);
            assertThat(FftThreading.threads()).isEqualTo(1);
            float[] p = PrnuExtractor.pattern(Reference.gaussian(64 * 48, 1), new PrnuWorkspace(64, 48));
            assertThat(p).hasSize(64 * 48);
        } finally {
            FftThreading.configure(before);
        }
    }

    @Test
    void cameraIds_followFirstAppearance() {
        TruthTable truth = new TruthTable(java.util.List.of("a", "b", "c", "d"),
                java.util.List.of("camX", "camY", "camX", "camZ"));
        assertThat(truth.cameraIds(java.util.List.of("d", "a", "c", "b"))).containsExactly(0, 1, 1, 2);
    }
}
