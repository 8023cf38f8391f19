package io.rocket.apps.microscopy;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Registration on the cpu device: preprocess copies the parsed slot (parse already centred, capped and binned it),
 * compare runs the {@link Registrar} with the Java sums of {@link GmmKernels}, one pose of the batch after the
 * other. One instance per device, used by that device's kernel thread only, so its point sets and optimiser state
 * are reused by every pair with no allocation.
 */
final class MicroscopyCpuKernels implements Kernels<Path>, PairEvaluator {
    private final PointSet model;
    private final PointSet scene;
    private final Registrar registrar;
    private final double[] best = new double[4];
    private final double[] gradient = new double[3];

    MicroscopyCpuKernels(RegistrationSettings settings) {
        model = new PointSet(settings.maxPoints());
        scene = new PointSet(settings.maxPoints());
        registrar = new Registrar(settings.starts(), settings.scale());
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
        register(left.byteBuffer(), right.byteBuffer(), best);
        ByteBuffer out = result.byteBuffer();
        for (int k = 0; k < 4; k++) {
            out.putDouble(k * Double.BYTES, best[k]);
        }
        return Registration.BYTES;
    }

    /** Registers the particle in slot {@code left} onto the one in {@code right}: S, tx, ty, θ into best. */
    void register(ByteBuffer left, ByteBuffer right, double[] best) {
        registrar.register(bind(left, right), best);
        Registration.toFileCoordinates(best, model.cx, model.cy, scene.cx, scene.cy);
    }

    /** The registrar of the last pair (for its counts). */
    Registrar registrar() {
        return registrar;
    }

    /** Loads the pair's slots into the workspace: this evaluator then works on them. */
    PairEvaluator bind(ByteBuffer left, ByteBuffer right) {
        model.load(left);
        scene.load(right);
        return this;
    }

    @Override
    public void costs(int set, double scale, double[] poses, int count, double[] out) {
        for (int k = 0; k < count; k++) {
            double tx = poses[3 * k];
            double ty = poses[3 * k + 1];
            double theta = poses[3 * k + 2];
            out[4 * k] = switch (set) {
                case COARSE -> GmmKernels.costAndGradient(model.coarse, scene.coarse, tx, ty, theta, scale, gradient);
                case FINE -> GmmKernels.costAndGradient(model.fine, scene.fine, tx, ty, theta, scale, gradient);
                default -> GmmKernels.costAndGradient(model, scene, tx, ty, theta, scale, gradient);
            };
            out[4 * k + 1] = gradient[0];
            out[4 * k + 2] = gradient[1];
            out[4 * k + 3] = gradient[2];
        }
    }

    @Override
    public void scores(double[] poses, int count, double[] out) {
        for (int k = 0; k < count; k++) {
            out[k] = GmmKernels.score(model, scene, poses[3 * k], poses[3 * k + 1], poses[3 * k + 2]);
        }
    }

    @Override
    public double modelRms() {
        return model.rms;
    }
}
