package io.rocket.apps.microscopy;

import io.rocket.testkit.Gpu;
import io.rocket.core.Application;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.InputFiles;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import io.rocket.core.ResultSink;
import io.rocket.core.cuda.CudaKernelContext;
import io.rocket.core.device.DeviceSpec;
import io.rocket.runtime.Rocket;
import io.rocket.runtime.RocketOptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CUDA cost, gradient (on the coarse bins, fine bins and full sets) and score sums equal the cpu ones within 1e-6
 * relative, evaluated by both devices on the same loaded pairs at several transforms, each in a batch of three poses;
 * and whole registrations on cuda agree with cpu.
 */
@Tag("gpu")
class MicroscopyCudaGpuTest {
    private static final double[][] PROBES = {{0, 0, 0, 10}, {3.5, -2, 0.7, 10}, {-8, 5, -2.9, 6}, {1, 1, 3.1, 20}};

    @TempDir
    Path tmp;

    @BeforeEach
    void gpu() {
        Gpu.assumePresent();
    }

    private ParticleDirectory.Listing particles(int count, double localizations) throws Exception {
        Path dir = tmp.resolve("p");
        MicroscopyGenerator.generate(dir, new MicroscopyGenerator.Options(count, 0.7, localizations, 3,
                MicroscopyGenerator.Format.JSON), Template.standard());
        return ParticleDirectory.scan(dir);
    }

    @Test
    void costGradientAndScore_cudaEqualsCpuWithin1e6Relative() throws Exception {
        ParticleDirectory.Listing listing = particles(5, 40);
        List<Path> keys = listing.particles();
        long maxFileBytes = listing.largestBytes();
        for (int probe = 0; probe < PROBES.length; probe++) {
            Map<Long, double[]> cpuScores = run(new ProbeApp(probe, true, PairEvaluator.FULL, maxFileBytes), keys,
                    "cpu");
            Map<Long, double[]> cudaScores = run(new ProbeApp(probe, true, PairEvaluator.FULL, maxFileBytes), keys,
                    "cuda");
            for (int set : new int[]{PairEvaluator.COARSE, PairEvaluator.FINE, PairEvaluator.FULL}) {
                Map<Long, double[]> cpu = run(new ProbeApp(probe, false, set, maxFileBytes), keys, "cpu");
                Map<Long, double[]> cuda = run(new ProbeApp(probe, false, set, maxFileBytes), keys, "cuda");
                assertThat(cuda.keySet()).isEqualTo(cpu.keySet());
                for (Map.Entry<Long, double[]> e : cpu.entrySet()) {
                    double[] a = e.getValue();
                    double[] b = cuda.get(e.getKey());
                    double gradientNorm = Math.sqrt(a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
                    assertThat(Math.abs(b[0] - a[0])).as("cost, set %d, probe %d", set, probe)
                            .isLessThanOrEqualTo(1e-6 * a[0]);
                    for (int k = 1; k <= 3; k++) {
                        assertThat(Math.abs(b[k] - a[k])).as("gradient %d, set %d, probe %d", k, set, probe)
                                .isLessThanOrEqualTo(1e-6 * gradientNorm);
                    }
                }
            }
            for (Map.Entry<Long, double[]> e : cpuScores.entrySet()) {
                double score = e.getValue()[0];
                assertThat(score).isPositive();
                assertThat(Math.abs(cudaScores.get(e.getKey())[0] - score)).as("score, probe %d", probe)
                        .isLessThanOrEqualTo(1e-6 * score);
            }
        }
    }

    @Test
    void registration_cudaAgreesWithCpu() throws Exception {
        ParticleDirectory.Listing listing = particles(4, 30);
        List<Path> keys = listing.particles();
        MicroscopyApp app = new MicroscopyApp(RegistrationSettings.defaults(), listing.largestBytes());
        Map<Long, Registration> cpu = register(app, keys, "cpu");
        Map<Long, Registration> cuda = register(app, keys, "cuda");
        assertThat(cuda).hasSize(6);
        for (Map.Entry<Long, Registration> e : cpu.entrySet()) {
            Registration a = e.getValue();
            Registration b = cuda.get(e.getKey());
            assertThat(Math.abs(Math.toDegrees(Registrar.wrap(a.theta() - b.theta())))).isLessThan(0.01);
            assertThat(Math.abs(b.score() - a.score())).isLessThanOrEqualTo(1e-4 * a.score());
        }
    }

    private static Map<Long, Registration> register(MicroscopyApp app, List<Path> keys, String device)
            throws Exception {
        Map<Long, Registration> out = new ConcurrentHashMap<>();
        Rocket.run(app, keys, RocketOptions.defaults().withDevice(DeviceSpec.parse(device)), sink(out));
        return out;
    }

    private static <R> Map<Long, R> run(Application<Path, R> app, List<Path> keys, String device) throws Exception {
        Map<Long, R> out = new ConcurrentHashMap<>();
        Rocket.run(app, keys, RocketOptions.defaults().withDevice(DeviceSpec.parse(device)), sink(out));
        return out;
    }

    private static <R> ResultSink<Path, R> sink(Map<Long, R> out) {
        return new ResultSink<>() {
            @Override
            public void accept(int i, int j, Path left, Path right, R result) {
                out.put(((long) i << 32) | j, result);
            }

            @Override
            public void failed(int i, int j, Path left, Path right, Throwable error) {
                throw new AssertionError("pair (" + i + ", " + j + ") failed: " + error.getMessage(), error);
            }
        };
    }

    /**
     * The microscopy app with a compare that evaluates the sums at one fixed transform: C and ∇C on one of the
     * slot's point sets, or S and zeros, written through the store kernel on cuda and directly on cpu. The pose
     * goes in a batch of three (itself between two others), so the batch's indexing is checked too.
     */
    private static final class ProbeApp implements Application<Path, double[]> {
        private final MicroscopyApp app;
        private final double[] probe;
        private final boolean scoreMode;
        private final int set;

        ProbeApp(int probe, boolean scoreMode, int set, long maxFileBytes) {
            this.scoreMode = scoreMode;
            this.set = set;
            this.app = new MicroscopyApp(RegistrationSettings.defaults(), maxFileBytes);
            this.probe = PROBES[probe];
        }

        @Override
        public List<Path> inputFiles(Path key) {
            return app.inputFiles(key);
        }

        @Override
        public long maxFileBytes() {
            return app.maxFileBytes();
        }

        @Override
        public long maxInputBytes() {
            return app.maxInputBytes();
        }

        @Override
        public long maxItemBytes() {
            return app.maxItemBytes();
        }

        @Override
        public long maxResultBytes() {
            return 8 * Double.BYTES;
        }

        @Override
        public long parse(Path key, InputFiles files, HostBuffer output) throws Exception {
            return app.parse(key, files, output);
        }

        @Override
        public Kernels<Path> kernels(DeviceKind kind) {
            Kernels<Path> real = app.kernels(kind);
            double[] values = new double[8];
            double[] batch = {1, 2, 0.5, probe[0], probe[1], probe[2], -3, 0, -1};
            double[] sums = new double[12];
            return new Kernels<>() {
                @Override
                public long preprocess(Path key, DeviceBuffer input, DeviceBuffer output, KernelContext context)
                        throws Exception {
                    return real.preprocess(key, input, output, context);
                }

                @Override
                public long compare(Path a, DeviceBuffer left, Path b, DeviceBuffer right, DeviceBuffer result,
                                    KernelContext context) {
                    PairEvaluator pair = kind == DeviceKind.CUDA
                            ? ((MicroscopyCudaKernels) real).bind(left, right, CudaKernelContext.of(context))
                            : ((MicroscopyCpuKernels) real).bind(left.byteBuffer(), right.byteBuffer());
                    pair.costs(set, probe[3], batch, 3, sums);
                    System.arraycopy(sums, 4, values, 0, 4);
                    if (scoreMode) {
                        pair.scores(batch, 3, sums);
                        values[0] = sums[1];
                        values[1] = 0;
                        values[2] = 0;
                        values[3] = 0;
                    }
                    if (kind == DeviceKind.CUDA) {
                        CudaKernelContext cuda = CudaKernelContext.of(context);
                        cuda.kernel("microscopy_store").grid(1).block(1).arg(result)
                                .arg(values[0]).arg(values[1]).arg(values[2]).arg(values[3]).launch();
                    } else {
                        ByteBuffer out = result.byteBuffer();
                        for (int k = 0; k < 4; k++) {
                            out.putDouble(k * Double.BYTES, values[k]);
                        }
                    }
                    return 4 * Double.BYTES;
                }
            };
        }

        @Override
        public double[] postprocess(Path left, Path right, HostBuffer result) {
            ByteBuffer b = result.byteBuffer();
            return new double[]{b.getDouble(0), b.getDouble(8), b.getDouble(16), b.getDouble(24)};
        }
    }
}
