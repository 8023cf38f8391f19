package io.rocket.bench;

import io.rocket.core.Application;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.InputFiles;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * A user's cheap function as a Rocket application: items are generated {@link Vectors} (no input files), parse
 * writes the vector, preprocess copies it into its slot, compare takes the dot product, postprocess reads it back.
 * Kernels read with absolute gets, as a tuned application would.
 */
public final class DotProductApp implements Application<Integer, Float> {
    private static final int BYTES = Vectors.DIMENSIONS * Float.BYTES;

    @Override
    public List<Path> inputFiles(Integer key) {
        return List.of();
    }

    @Override
    public long maxInputBytes() {
        return BYTES;
    }

    @Override
    public long maxItemBytes() {
        return BYTES;
    }

    @Override
    public long maxResultBytes() {
        return Float.BYTES;
    }

    @Override
    public long parse(Integer key, InputFiles files, HostBuffer output) {
        ByteBuffer out = output.byteBuffer();
        for (float x : Vectors.vector(key)) {
            out.putFloat(x);
        }
        return BYTES;
    }

    @Override
    public Kernels<Integer> kernels(DeviceKind kind) {
        if (kind != DeviceKind.CPU) {
            throw new UnsupportedOperationException("the benchmark runs on cpu devices");
        }
        return new Kernels<>() {
            @Override
            public long preprocess(Integer key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
                output.byteBuffer().put(input.byteBuffer());
                return BYTES;
            }

            @Override
            public long compare(Integer leftKey, DeviceBuffer left, Integer rightKey, DeviceBuffer right,
                                DeviceBuffer result, KernelContext context) {
                ByteBuffer a = left.byteBuffer();
                ByteBuffer b = right.byteBuffer();
                float sum = 0;
                for (int d = 0; d < BYTES; d += Float.BYTES) {
                    sum += a.getFloat(d) * b.getFloat(d);
                }
                result.byteBuffer().putFloat(0, sum);
                return Float.BYTES;
            }
        };
    }

    @Override
    public Float postprocess(Integer left, Integer right, HostBuffer result) {
        return result.byteBuffer().getFloat(0);
    }
}
