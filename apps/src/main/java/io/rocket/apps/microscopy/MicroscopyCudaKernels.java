package io.rocket.apps.microscopy;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import io.rocket.core.cuda.CudaKernelContext;
import io.rocket.core.cuda.KernelModules;

import java.nio.file.Path;

/**
 * Registration on NVIDIA GPUs ({@code apps/src/main/cuda/microscopy.cu}). The optimiser's control loop
 * ({@link Registrar}) stays on the host, on the device's kernel thread, and so do its binned stages (the pair's
 * positions are read back once per compare and binned there, exactly as on cpu); each full-resolution cost and
 * score evaluation launches one
 * kernel that sums over all point pairs with per-block reductions in double, and the host reads the block partials
 * back ({@link CudaKernelContext#readDoubles}) and adds them in a fixed order. Compares therefore wait for the GPU
 * between iterations instead of overlapping with the next pair; about twenty full evaluations per pair remain. The result is written into the pair's result buffer by a last tiny kernel.
 *
 * <p>One instance per GPU, used by its kernel thread only: the scratch buffer for partials and all host arrays are
 * allocated once.
 */
final class MicroscopyCudaKernels implements Kernels<Path> {
    /** The kernel module, {@code microscopy.cu}. */
    static final String MODULE = "microscopy";
    /** Threads per block; must equal MICROSCOPY_BLOCK in the .cu file. */
    private static final int BLOCK = 128;
    /** Scene points per block at least, so a block's tiles are worth loading. */
    private static final int MIN_SCENE_CHUNK = 128;

    private final RegistrationSettings settings;
    private final Registrar registrar;
    private final Pair pair = new Pair();
    private final double[] header = new double[ParticleSlot.HEADER_DOUBLES];
    /** A slot's header and positions read back for the coarse search, which runs on the host. */
    private final double[] words;
    private final PointSet model;
    private final PointSet scene;
    private final double[] best = new double[4];
    private final double[] partialSums;
    private final int maxBlocksPerSide;
    private DeviceBuffer partials;

    /**
     * @throws io.rocket.core.RocketException when the microscopy kernels were not built into this jar
     */
    MicroscopyCudaKernels(RegistrationSettings settings) {
        KernelModules.require(MODULE);
        this.settings = settings;
        this.registrar = new Registrar(settings.starts(), settings.scale(), settings.maxPoints());
        this.words = new double[ParticleSlot.HEADER_DOUBLES + 2 * settings.maxPoints()];
        this.model = new PointSet(settings.maxPoints());
        this.scene = new PointSet(settings.maxPoints());
        this.maxBlocksPerSide = (settings.maxPoints() + BLOCK - 1) / BLOCK;
        this.partialSums = new double[4 * maxBlocksPerSide * maxBlocksPerSide];
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
        bind(left, right, cuda);
        registrar.register(pair, model, scene, best);
        Registration.toFileCoordinates(best, pair.modelCx, pair.modelCy, pair.sceneCx, pair.sceneCy);
        cuda.kernel("microscopy_store").grid(1).block(1).arg(result)
                .arg(best[0]).arg(best[1]).arg(best[2]).arg(best[3]).launch();
        return Registration.BYTES;
    }

    /** Loads the pair's headers and sizes the grids: the evaluator then works on these two slots. */
    PairEvaluator bind(DeviceBuffer left, DeviceBuffer right, CudaKernelContext cuda) {
        if (partials == null) {
            partials = cuda.scratch((long) partialSums.length * Double.BYTES);
        }
        cuda.readDoubles(left, header, header.length);
        int m = (int) header[0];
        pair.modelCx = header[1];
        pair.modelCy = header[2];
        cuda.readDoubles(right, header, header.length);
        int n = (int) header[0];
        pair.sceneCx = header[1];
        pair.sceneCy = header[2];
        if (m < 1 || n < 1 || m > settings.maxPoints() || n > settings.maxPoints()) {
            throw new IllegalStateException("slots hold " + m + " and " + n + " localizations; at most "
                    + settings.maxPoints() + " expected");
        }
        // The coarse search works on binned copies of the two particles on the host (a few hundred components):
        // read back the positions once per pair.
        cuda.readDoubles(left, words, ParticleSlot.HEADER_DOUBLES + 2 * m);
        model.loadPositions(words);
        cuda.readDoubles(right, words, ParticleSlot.HEADER_DOUBLES + 2 * n);
        scene.loadPositions(words);
        pair.cuda = cuda;
        pair.left = left;
        pair.right = right;
        pair.m = m;
        pair.n = n;
        pair.gridX = (m + BLOCK - 1) / BLOCK;
        // Enough blocks to fill the GPU a few times over, each with at least MIN_SCENE_CHUNK scene points.
        int wanted = Math.max(1, 4 * cuda.multiprocessors() / pair.gridX);
        pair.gridY = Math.max(1, Math.min(wanted, Math.min(maxBlocksPerSide, (n + MIN_SCENE_CHUNK - 1)
                / MIN_SCENE_CHUNK)));
        return pair;
    }

    /** The evaluator of the bound pair: one kernel launch and one read-back per evaluation. */
    private final class Pair implements PairEvaluator {
        CudaKernelContext cuda;
        DeviceBuffer left;
        DeviceBuffer right;
        int m;
        int n;
        int gridX;
        int gridY;
        double modelCx;
        double modelCy;
        double sceneCx;
        double sceneCy;

        @Override
        public double cost(double tx, double ty, double theta, double scale, double[] gradient) {
            double invS2 = 1.0 / (scale * scale);
            cuda.kernel("microscopy_cost").grid(gridX, gridY, 1).block(BLOCK).arg(left).arg(right).arg(partials)
                    .arg(tx).arg(ty).arg(Math.cos(theta)).arg(Math.sin(theta)).arg(invS2).launch();
            int blocks = gridX * gridY;
            cuda.readDoubles(partials, partialSums, 4 * blocks);
            double e0 = 0;
            double ex = 0;
            double ey = 0;
            double et = 0;
            for (int b = 0; b < blocks; b++) {
                e0 += partialSums[4 * b];
                ex += partialSums[4 * b + 1];
                ey += partialSums[4 * b + 2];
                et += partialSums[4 * b + 3];
            }
            double norm = 1.0 / ((double) m * n);
            double g = -2.0 * invS2 * norm;
            gradient[0] = g * ex;
            gradient[1] = g * ey;
            gradient[2] = g * et;
            return e0 * norm;
        }

        @Override
        public double score(double tx, double ty, double theta) {
            cuda.kernel("microscopy_score").grid(gridX, gridY, 1).block(BLOCK).arg(left).arg(right).arg(partials)
                    .arg(tx).arg(ty).arg(Math.cos(theta)).arg(Math.sin(theta)).launch();
            int blocks = gridX * gridY;
            cuda.readDoubles(partials, partialSums, blocks);
            double total = 0;
            for (int b = 0; b < blocks; b++) {
                total += partialSums[b];
            }
            return total;
        }
    }
}
