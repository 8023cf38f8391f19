package io.rocket.testkit;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import io.rocket.core.cuda.CudaKernelContext;
import io.rocket.core.cuda.KernelModules;

import java.util.function.IntToLongFunction;

/**
 * The synthetic workload on NVIDIA GPUs ({@code apps/src/main/cuda/synthetic.cu}): preprocess copies the parsed item
 * into its L1 slot, compare XORs the first 8 bytes of both slots into the result, and each then spins for the
 * modelled cost on the GPU, so results are byte-identical to the cpu kernels and timings follow the configured
 * costs. Launches use the allocation-free form of {@link CudaKernelContext}, as compare runs once per pair.
 */
final class SyntheticCudaKernels implements Kernels<Integer> {
    /** The kernel module, {@code synthetic.cu}. */
    static final String MODULE = "synthetic";
    private static final int BLOCK = 256;
    /** Enough blocks to stream a large item at full bandwidth; a grid-stride loop covers the rest. */
    private static final int MAX_GRID = 1024;

    /** The modelled compare cost of a pair, in nanoseconds. */
    @FunctionalInterface
    interface PairCost {
        long nanos(int i, int j);
    }

    private final IntToLongFunction preprocessNanos;
    private final PairCost compareNanos;

    /**
     * @param preprocessNanos the modelled preprocess cost of an item
     * @param compareNanos    the modelled compare cost of a pair
     * @throws io.rocket.core.RocketException when the synthetic kernels were not built into this jar
     */
    SyntheticCudaKernels(IntToLongFunction preprocessNanos, PairCost compareNanos) {
        KernelModules.require(MODULE);
        this.preprocessNanos = preprocessNanos;
        this.compareNanos = compareNanos;
    }

    @Override
    public long preprocess(Integer key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
        long bytes = input.length();
        if (bytes > output.capacity()) {
            throw new IllegalArgumentException("item of " + bytes + " bytes exceeds its " + output.capacity()
                    + "-byte slot");
        }
        long perBlock = (long) BLOCK * Long.BYTES;
        int grid = (int) Math.max(1, Math.min(MAX_GRID, (bytes + perBlock - 1) / perBlock));
        CudaKernelContext.of(context).kernel("synthetic_preprocess").grid(grid).block(BLOCK)
                .arg(input).arg(output).arg(bytes).arg(preprocessNanos.applyAsLong(key)).launch();
        return bytes;
    }

    @Override
    public long compare(Integer leftKey, DeviceBuffer left, Integer rightKey, DeviceBuffer right, DeviceBuffer result,
                        KernelContext context) {
        CudaKernelContext.of(context).kernel("synthetic_compare").grid(1).block(1)
                .arg(left).arg(right).arg(result).arg(compareNanos.nanos(leftKey, rightKey)).launch();
        return Long.BYTES;
    }
}
