package io.rocket.testapp;

import io.rocket.core.Application;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.InputFiles;
import io.rocket.core.KernelContext;
import io.rocket.core.KeyParser;
import io.rocket.core.Kernels;

import java.nio.file.Path;
import java.util.List;

/** Test application: integer keys made by its {@link KeyParser}; a pair's result is |a - b|. No result codec. */
public final class NumberDistance implements Application<Integer, Long>, KeyParser<Integer> {

    @Override
    public Integer parseKey(String text) {
        try {
            return Integer.valueOf(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an integer");
        }
    }

    @Override
    public List<Path> inputFiles(Integer key) {
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
    public long parse(Integer key, InputFiles files, HostBuffer output) {
        output.byteBuffer().putLong(0, key);
        return Long.BYTES;
    }

    @Override
    public Kernels<Integer> kernels(DeviceKind kind) {
        return new Kernels<>() {
            @Override
            public long preprocess(Integer key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
                output.byteBuffer().putLong(0, input.byteBuffer().getLong(0));
                return Long.BYTES;
            }

            @Override
            public long compare(Integer leftKey, DeviceBuffer left, Integer rightKey, DeviceBuffer right,
                                DeviceBuffer result, KernelContext context) {
                result.byteBuffer().putLong(0, Math.abs(left.byteBuffer().getLong(0) - right.byteBuffer().getLong(0)));
                return Long.BYTES;
            }
        };
    }

    @Override
    public Long postprocess(Integer left, Integer right, HostBuffer result) {
        return result.byteBuffer().getLong(0);
    }
}
