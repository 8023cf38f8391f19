package io.rocket.apps.microscopy;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Registration on the cpu device: preprocess copies the parsed slot (parse already centred and capped it), compare
 * runs the {@link Registrar} with the Java sums of {@link GmmKernels}. One instance per device, used by that
 * device's kernel thread only, so its point sets and optimiser state are reused by every pair with no allocation.
 */
final class MicroscopyCpuKernels implements Kernels<Path>, PairEvaluator {
    private final PointSet model;
    private final PointSet scene;
    private final Registrar registrar;
    private final double[] best = new double[4];

    MicroscopyCpuKernels(RegistrationSettings settings) {
        model = new PointSet(settings.maxPoints());
        scene = new PointSet(settings.maxPoints());
        registrar = new Registrar(settings.starts(), settings.scale(), settings.maxPoints());
    }

    @Override
    public long preprocess(Path key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
        ByteBuffer in = input.byteBuffer();
        ByteBuffer out = output.byteBuffer();
        int bytes = (int) input.length();
        for (int k = 0; k < bytes; k += Long.BYTES) {
            out.putLong(k, in.getLong(k));
        }
        return bytes;
    }

    @Override
    public long compare(Path leftKey, DeviceBuffer left, Path rightKey, DeviceBuffer right, DeviceBuffer result,
                        KernelContext context) {
        registrar.register(bind(left, right), model, scene, best);
        Registration.toFileCoordinates(best, model.cx, model.cy, scene.cx, scene.cy);
        ByteBuffer out = result.byteBuffer();
        for (int k = 0; k < 4; k++) {
            out.putDouble(k * Double.BYTES, best[k]);
        }
        return Registration.BYTES;
    }

    /** Loads the pair's slots into the workspace: this evaluator then works on them. */
    PairEvaluator bind(DeviceBuffer left, DeviceBuffer right) {
        model.load(left.byteBuffer());
        scene.load(right.byteBuffer());
        return this;
    }

    @Override
    public double cost(double tx, double ty, double theta, double scale, double[] gradient) {
        return GmmKernels.costAndGradient(model, scene, tx, ty, theta, scale, gradient);
    }

    @Override
    public double score(double tx, double ty, double theta) {
        return GmmKernels.score(model, scene, tx, ty, theta);
    }
}
