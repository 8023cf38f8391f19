package io.rocket.apps;

import io.rocket.core.Application;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.InputFiles;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;

/**
 * Test application run as {@code rocket APP_CLASS}: text keys, a pair's result is the difference of their lengths
 * times {@code --scale}. No input files and no result codec.
 */
public final class LengthDifference implements Application<String, Long> {
    @Option(names = "--scale", description = "Factor of every result.")
    long scale = 1;

    @Override
    public List<Path> inputFiles(String key) {
        return List.of();
    }

    @Override
    public long maxInputBytes() {
        return Long.BYTES;
    }

    @Override
    public long maxItemBytes() {
        return Long.BYTES;
    }

    @Override
    public long maxResultBytes() {
        return Long.BYTES;
    }

    @Override
    public long parse(String key, InputFiles files, HostBuffer output) {
        output.byteBuffer().putLong(0, key.length());
        return Long.BYTES;
    }

    @Override
    public Kernels<String> kernels(DeviceKind kind) {
        return new Kernels<>() {
            @Override
            public long preprocess(String key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
                output.byteBuffer().putLong(0, input.byteBuffer().getLong(0));
                return Long.BYTES;
            }

            @Override
            public long compare(String leftKey, DeviceBuffer left, String rightKey, DeviceBuffer right,
                                DeviceBuffer result, KernelContext context) {
                result.byteBuffer().putLong(0, Math.abs(left.byteBuffer().getLong(0) - right.byteBuffer().getLong(0)));
                return Long.BYTES;
            }
        };
    }

    @Override
    public Long postprocess(String left, String right, HostBuffer result) {
        return scale * result.byteBuffer().getLong(0);
    }
}
