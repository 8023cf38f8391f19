package io.rocket.apps.microscopy;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import io.rocket.core.cuda.CudaKernelContext;
import io.rocket.core.cuda.CudaLaunch;
import io.rocket.core.cuda.KernelModules;

import java.nio.file.Path;

/**
 * Registration on NVIDIA GPUs ({@code apps/src/main/cuda/microscopy.cu}). The optimiser's control loop
 * ({@link Registrar}) stays on the host, on the device's kernel thread, and steps all starts of a stage together:
 * each round launches one {@code microscopy_cost} over the poses of every start still running (poses × model blocks ×
 * scene chunks, on the slot's coarse bins, fine bins or full points) and reads back four doubles per pose, which the
 * kernel's last block has already summed in a fixed order. Kernel arguments are the host's only way to hand values
 * to the device within a compare: the first {@value #INLINE_POSES} poses are arguments of that launch, and any
 * further ones go before it into a small device buffer, {@value #POSES_PER_SET} per {@code microscopy_set_poses}
 * launch (only the coarse stage's early rounds have more than {@value #INLINE_POSES} starts running). The finalists' scores are one {@code microscopy_score} launch. Nothing of the
 * particles crosses to the host but their six-double headers: parse binned them into the slot.
 *
 * <p>One instance per GPU, used by its kernel thread only: the scratch buffers and all host arrays are allocated
 * once.
 */
final class MicroscopyCudaKernels implements Kernels<Path> {
    /** The kernel module, {@code microscopy.cu}. */
    static final String MODULE = "microscopy";
    /** Threads per block; must equal MICROSCOPY_BLOCK in the .cu file. */
    static final int BLOCK = 128;
    /** Blocks per multiprocessor the kernels' registers allow (MICROSCOPY_MIN_BLOCKS): half of its threads. */
    static final int BLOCKS_PER_SM = 8;
    /** Scene points per block at least, so a block's loads and reduction are worth it. */
    static final int MIN_SCENE_CHUNK = 32;
    /** Poses passed as arguments of the cost or score launch; must equal MICROSCOPY_INLINE_POSES. */
    static final int INLINE_POSES = 5;
    /** Poses per microscopy_set_poses launch; must equal MICROSCOPY_POSES_PER_SET. */
    static final int POSES_PER_SET = 7;

    private final RegistrationSettings settings;
    private final Registrar registrar;
    private final Pair pair = new Pair();
    private final double[] header = new double[ParticleSlot.HEADER_DOUBLES];
    private final double[] best = new double[4];
    private final double[] sums;
    private final double[] values = new double[4 * POSES_PER_SET];
    private final double[] inline = new double[4 * INLINE_POSES];
    private DeviceBuffer poses;
    private DeviceBuffer partials;
    private DeviceBuffer out;
    private DeviceBuffer done;
    private int targetBlocks;

    /**
     * @throws io.rocket.core.RocketException when the microscopy kernels were not built into this jar
     */
    MicroscopyCudaKernels(RegistrationSettings settings) {
        KernelModules.require(MODULE);
        this.settings = settings;
        this.registrar = new Registrar(settings.starts(), settings.scale());
        this.sums = new double[4 * settings.starts()];
    }

    @Override
    public long preprocess(Path key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
        long words = input.length() / Double.BYTES;
        int grid = CudaKernelContext.gridFor(words, BLOCK, 256);
        CudaKernelContext.of(context).kernel("microscopy_preprocess").grid(grid).block(BLOCK)
                .arg(input).arg(output).arg(words).launch();
        return input.length();
    }

    @Override
    public long compare(Path leftKey, DeviceBuffer left, Path rightKey, DeviceBuffer right, DeviceBuffer result,
                        KernelContext context) {
        CudaKernelContext cuda = CudaKernelContext.of(context);
        registrar.register(bind(left, right, cuda), best);
        Registration.toFileCoordinates(best, pair.modelCx, pair.modelCy, pair.sceneCx, pair.sceneCy);
        cuda.kernel("microscopy_store").grid(1).block(1).arg(result)
                .arg(best[0]).arg(best[1]).arg(best[2]).arg(best[3]).launch();
        return Registration.BYTES;
    }

    /** The registrar (for its counts of the last pair). */
    Registrar registrar() {
        return registrar;
    }

    /**
     * Blocks per pose of a launch over {@code count} poses with {@code m} model and {@code n} scene points, into
     * {@code into}: {@code [model blocks, scene chunks]}. One wave of {@code target} blocks (BLOCKS_PER_SM per multiprocessor)
     * over all poses when the points allow it, each chunk at least {@value #MIN_SCENE_CHUNK} scene points.
     * emulate.cpp mirrors this.
     */
    static int[] grid(int count, int m, int n, int target, int[] into) {
        int modelBlocks = (m + BLOCK - 1) / BLOCK;
        int wanted = (target + count - 1) / count;
        int chunks = (wanted + modelBlocks - 1) / modelBlocks;
        chunks = Math.max(1, Math.min(chunks, (n + MIN_SCENE_CHUNK - 1) / MIN_SCENE_CHUNK));
        into[0] = modelBlocks;
        into[1] = chunks;
        return into;
    }

    /** Loads the pair's headers and the scratch: the evaluator then works on these two slots. */
    PairEvaluator bind(DeviceBuffer left, DeviceBuffer right, CudaKernelContext cuda) {
        if (partials == null) {
            targetBlocks = BLOCKS_PER_SM * cuda.multiprocessors();
            int starts = settings.starts();
            int maxModelBlocks = (settings.maxPoints() + BLOCK - 1) / BLOCK;
            // grid() gives count·modelBlocks·chunks < target + count·(modelBlocks + 1) blocks.
            long blocks = targetBlocks + (long) starts * (maxModelBlocks + 1);
            partials = cuda.scratch(4 * blocks * Double.BYTES);
            poses = cuda.scratch(4L * starts * Double.BYTES);
            out = cuda.scratch(4L * starts * Double.BYTES);
            done = cuda.scratch(Integer.BYTES);
            cuda.kernel("microscopy_clear").grid(1).block(1).arg(done).launch();
        }
        cuda.readDoubles(left, header, header.length);
        int m = (int) header[0];
        pair.modelCx = header[1];
        pair.modelCy = header[2];
        pair.modelRms = header[3];
        pair.modelSizes[PairEvaluator.COARSE] = (int) header[4];
        pair.modelSizes[PairEvaluator.FINE] = (int) header[5];
        pair.modelSizes[PairEvaluator.FULL] = m;
        cuda.readDoubles(right, header, header.length);
        int n = (int) header[0];
        pair.sceneCx = header[1];
        pair.sceneCy = header[2];
        pair.sceneSizes[PairEvaluator.COARSE] = (int) header[4];
        pair.sceneSizes[PairEvaluator.FINE] = (int) header[5];
        pair.sceneSizes[PairEvaluator.FULL] = n;
        if (m < 1 || n < 1 || m > settings.maxPoints() || n > settings.maxPoints()) {
            throw new IllegalStateException("slots hold " + m + " and " + n + " localizations; at most "
                    + settings.maxPoints() + " expected");
        }
        pair.cuda = cuda;
        pair.left = left;
        pair.right = right;
        return pair;
    }

    /** The evaluator of the bound pair: per batch one kernel launch (after pose launches past five) and one read-back. */
    private final class Pair implements PairEvaluator {
        CudaKernelContext cuda;
        DeviceBuffer left;
        DeviceBuffer right;
        final int[] modelSizes = new int[3];
        final int[] sceneSizes = new int[3];
        final int[] blocks = new int[2];
        double modelCx;
        double modelCy;
        double modelRms;
        double sceneCx;
        double sceneCy;

        @Override
        public void costs(int set, double scale, double[] batch, int count, double[] result) {
            int m = modelSizes[set];
            int n = sceneSizes[set];
            upload(batch, count);
            int[] g = grid(count, m, n, targetBlocks, blocks);
            double invS2 = 1.0 / (scale * scale);
            CudaLaunch launch = cuda.kernel("microscopy_cost").grid(count * g[0] * g[1]).block(BLOCK).arg(left)
                    .arg(right).arg(set).arg(poses).arg(count).arg(g[0]).arg(g[1]).arg(invS2).arg(partials).arg(done)
                    .arg(out);
            for (double v : inline) {
                launch.arg(v);
            }
            launch.launch();
            cuda.readDoubles(out, sums, 4 * count);
            // Bins weigh as many localizations as the particle has: the norm is the full sets' 1/(mn).
            double norm = 1.0 / ((double) modelSizes[FULL] * sceneSizes[FULL]);
            double gradientScale = -2.0 * invS2 * norm;
            for (int k = 0; k < count; k++) {
                result[4 * k] = sums[4 * k] * norm;
                result[4 * k + 1] = gradientScale * sums[4 * k + 1];
                result[4 * k + 2] = gradientScale * sums[4 * k + 2];
                result[4 * k + 3] = gradientScale * sums[4 * k + 3];
            }
        }

        @Override
        public void scores(double[] batch, int count, double[] result) {
            upload(batch, count);
            int[] g = grid(count, modelSizes[FULL], sceneSizes[FULL], targetBlocks, blocks);
            CudaLaunch launch = cuda.kernel("microscopy_score").grid(count * g[0] * g[1]).block(BLOCK).arg(left)
                    .arg(right).arg(poses).arg(count).arg(g[0]).arg(g[1]).arg(partials).arg(done).arg(out);
            for (double v : inline) {
                launch.arg(v);
            }
            launch.launch();
            cuda.readDoubles(out, result, count);
        }

        @Override
        public double modelRms() {
            return modelRms;
        }

        /**
         * Puts the batch's poses, as (tx, ty, cos θ, sin θ) with cos and sin as the cpu kernels compute them, into
         * {@link #inline} (the first {@value #INLINE_POSES}; the rest zero) and launches microscopy_set_poses for
         * the others.
         */
        private void upload(double[] batch, int count) {
            java.util.Arrays.fill(inline, 0);
            pose(batch, 0, Math.min(INLINE_POSES, count), inline);
            for (int first = INLINE_POSES; first < count; first += POSES_PER_SET) {
                int here = Math.min(POSES_PER_SET, count - first);
                java.util.Arrays.fill(values, 0);
                pose(batch, first, here, values);
                CudaLaunch launch = cuda.kernel("microscopy_set_poses").grid(1).block(32).arg(poses).arg(first)
                        .arg(here);
                for (double v : values) {
                    launch.arg(v);
                }
                launch.launch();
            }
        }

        private static void pose(double[] batch, int first, int count, double[] into) {
            for (int k = 0; k < count; k++) {
                double theta = batch[3 * (first + k) + 2];
                into[4 * k] = batch[3 * (first + k)];
                into[4 * k + 1] = batch[3 * (first + k) + 1];
                into[4 * k + 2] = Math.cos(theta);
                into[4 * k + 3] = Math.sin(theta);
            }
        }
    }
}
