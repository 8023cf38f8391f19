package io.rocket.apps.cuda;

import io.rocket.testkit.Gpu;
import io.rocket.apps.Cli;
import io.rocket.apps.forensics.ForensicsApp;
import io.rocket.apps.forensics.ForensicsGenerator;
import io.rocket.apps.forensics.ForensicsPipeline;
import io.rocket.apps.forensics.GeneratorOptions;
import io.rocket.apps.forensics.Metric;
import io.rocket.apps.forensics.PrnuLayout;
import io.rocket.apps.forensics.TruthTable;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.Kernels;
import io.rocket.core.cuda.CuFft;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The forensics cuda kernels against the cpu kernels (the reference): the cached items (half spectrum for PCE,
 * pattern for NCC) within 1e-4 of the largest magnitude, every pair's score within 1e-4 relative (relative to
 * max(|score|, 1) for PCE and to max(|score|, 0.01) for NCC, whose unrelated pairs score near 0), on photos whose
 * sizes are not powers of two; and the launcher on {@code --device cuda} clustering like the cpu device.
 */
@Tag("gpu")
class ForensicsCudaGpuTest {
    private static final double TOLERANCE = 1e-4;

    @TempDir
    Path dir;

    @BeforeEach
    void gpu() {
        Gpu.assumePresent();
        assumeTrue(CuFft.unavailabilityCause().isEmpty(), () -> CuFft.unavailabilityCause().orElse(""));
    }

    @ParameterizedTest
    @EnumSource(Metric.class)
    void preprocessAndCompare_matchCpuKernels(Metric metric) throws Exception {
        int width = 200;
        int height = 150;
        TruthTable truth = ForensicsGenerator.generate(dir, new GeneratorOptions(2, 3, width, height, 0.03, 90, 41));
        ForensicsPipeline pipeline = new ForensicsPipeline(width, height, metric);
        ForensicsApp app = new ForensicsApp(pipeline, 1 << 20);
        List<ByteBuffer> cpuItems = new ArrayList<>();
        List<DeviceBuffer> gpuItems = new ArrayList<>();
        long itemBytes = pipeline.maxItemBytes();
        try (GpuKernelRig rig = new GpuKernelRig()) {
            Kernels<Path> kernels = app.kernels(DeviceKind.CUDA);
            for (String file : truth.files()) {
                Path photo = dir.resolve(file);
                ByteBuffer jpeg = ByteBuffer.wrap(Files.readAllBytes(photo));
                ByteBuffer gray = ByteBuffer.allocate((int) pipeline.maxParsedBytes()).order(ByteOrder.LITTLE_ENDIAN);
                long parsed = pipeline.parse(file, jpeg, gray);
                gray.limit((int) parsed);

                ByteBuffer cpu = ByteBuffer.allocate((int) itemBytes).order(ByteOrder.LITTLE_ENDIAN);
                assertThat(pipeline.preprocess(file, gray, cpu)).isEqualTo(itemBytes);
                cpuItems.add(cpu);

                DeviceBuffer staged = rig.upload(gray, parsed);
                DeviceBuffer slot = rig.device.allocate(itemBytes + 64);
                rig.context.begin();
                long written = kernels.preprocess(photo, staged, slot, rig.context);
                rig.context.end();
                assertThat(written).isEqualTo(itemBytes);
                ByteBuffer gpu = rig.download(slot, itemBytes);
                for (int b = 0; b < PrnuLayout.HEADER_BYTES; b += 4) {
                    assertThat(gpu.getInt(b)).as("header int at %d", b).isEqualTo(cpu.getInt(b));
                }
                assertFloatsClose(gpu, cpu, file);
                gpuItems.add(slot);
            }
            DeviceBuffer result = rig.device.allocate(ForensicsPipeline.RESULT_BYTES);
            double floor = metric == Metric.PCE ? 1.0 : 0.01;
            for (int i = 0; i < gpuItems.size(); i++) {
                for (int j = i + 1; j < gpuItems.size(); j++) {
                    double expected = pipeline.similarity(cpuItems.get(i), cpuItems.get(j));
                    rig.context.begin();
                    kernels.compare(null, gpuItems.get(i), null, gpuItems.get(j), result, rig.context);
                    rig.context.end();
                    double actual = rig.download(result, 8).getDouble(0);
                    assertThat(Math.abs(actual - expected))
                            .as("%s of pair (%d, %d): cuda %s, cpu %s", metric, i, j, actual, expected)
                            .isLessThanOrEqualTo(TOLERANCE * Math.max(Math.abs(expected), floor));
                }
            }
            // The tile path (NCC: one launch group; PCE: batches of a power of two of pairs through batched cuFFT
            // plans, 32 + 4 here): every ordered pair and the self pairs in one compareTile, slots 16 bytes apart.
            int n = gpuItems.size();
            int[] pairs = RigTile.allOrderedPairs(n);
            double[] tiled = new RigTile(rig, gpuItems, pairs, 2 * ForensicsPipeline.RESULT_BYTES)
                    .compare(rig, kernels);
            for (int p = 0; p < tiled.length; p++) {
                double expected = pipeline.similarity(cpuItems.get(pairs[2 * p]), cpuItems.get(pairs[2 * p + 1]));
                assertThat(Math.abs(tiled[p] - expected))
                        .as("%s of tile pair (%d, %d): cuda %s, cpu %s", metric, pairs[2 * p], pairs[2 * p + 1],
                                tiled[p], expected)
                        .isLessThanOrEqualTo(TOLERANCE * Math.max(Math.abs(expected), floor));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Metric.class)
    void launcherOnCuda_clustersLikeCpu(Metric metric) throws IOException {
        Path photos = dir.resolve("photos");
        ForensicsGenerator.generate(photos, new GeneratorOptions(4, 5, 512, 384, 0.02, 85, 7));
        Map<String, String> cpu = run(photos, metric, "cpu");
        Map<String, String> cuda = run(photos, metric, "cuda");
        assertThat(cuda).isEqualTo(cpu);
    }

    @Test
    void smallCachesOnCuda_everyPairScoredOnce() throws IOException {
        Path photos = dir.resolve("photos");
        ForensicsGenerator.generate(photos, new GeneratorOptions(3, 4, 160, 120, 0.03, 90, 9));
        Path pairs = dir.resolve("pairs.tsv");
        Cli.Result r = Cli.run("forensics", photos.toString(), "--device", "cuda", "--output", pairs.toString(),
                "--host-cache-size", "4slots", "--device-cache-size", "3slots", "--concurrent-jobs", "8");
        assertThat(r.code()).as(r.both()).isZero();
        assertThat(r.out()).contains("adjusted Rand index 1.000");
        assertThat(Files.readAllLines(pairs)).hasSize(1 + 12 * 11 / 2).doesNotHaveDuplicates();
    }

    /** The clusters file of a run, checking it matched the truth. */
    private Map<String, String> run(Path photos, Metric metric, String device) throws IOException {
        Path clusters = dir.resolve(device + "-" + metric + "-clusters.tsv");
        Cli.Result r = Cli.run("forensics", photos.toString(), "--metric", metric.name().toLowerCase(),
                "--device", device, "--clusters", clusters.toString());
        assertThat(r.code()).as(r.both()).isZero();
        assertThat(r.out()).as(r.both()).contains("20 photos in 4 clusters").contains("adjusted Rand index 1.000");
        Map<String, String> map = new HashMap<>();
        for (String line : Files.readAllLines(clusters)) {
            String[] f = line.split("\t");
            map.put(f[0], f[1]);
        }
        return map;
    }

    private static void assertFloatsClose(ByteBuffer actual, ByteBuffer expected, String what) {
        int end = expected.limit();
        double scale = 0;
        for (int b = PrnuLayout.HEADER_BYTES; b < end; b += 4) {
            scale = Math.max(scale, Math.abs(expected.getFloat(b)));
        }
        double worst = 0;
        for (int b = PrnuLayout.HEADER_BYTES; b < end; b += 4) {
            worst = Math.max(worst, Math.abs(actual.getFloat(b) - expected.getFloat(b)));
        }
        assertThat(worst / scale).as("%s: largest difference relative to the largest magnitude", what)
                .isLessThan(TOLERANCE);
    }
}
