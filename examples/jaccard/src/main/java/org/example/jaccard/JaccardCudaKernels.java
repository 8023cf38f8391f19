package org.example.jaccard;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import io.rocket.core.cuda.CudaKernelContext;
import io.rocket.core.cuda.KernelModules;

import java.nio.file.Path;

/** The Jaccard kernels on a GPU ({@code src/main/cuda/jaccard.cu}); launches allocate nothing, as compare runs per pair. */
final class JaccardCudaKernels implements Kernels<Path> {
    private static final int BLOCK = 256; // jaccard_compare sums in a shared array of this size

    JaccardCudaKernels() {
        KernelModules.require("jaccard"); // a one-line error before the run when built without -Pcuda
    }

    @Override
    public long preprocess(Path key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
        long count = input.length() / Long.BYTES;
        CudaKernelContext.of(context).kernel("jaccard_copy").grid(CudaKernelContext.gridFor(count, BLOCK, 1024))
                .block(BLOCK).arg(input).arg(output).arg(count).launch();
        return input.length();
    }

    @Override
    public long compare(Path a, DeviceBuffer left, Path b, DeviceBuffer right, DeviceBuffer result,
                        KernelContext context) {
        CudaKernelContext.of(context).kernel("jaccard_compare").grid(1).block(BLOCK)
                .arg(left).arg(left.length() / Long.BYTES).arg(right).arg(right.length() / Long.BYTES).arg(result)
                .launch();
        return Double.BYTES;
    }
}
