package io.rocket.apps.inputs;

import io.rocket.files.FileItemApplication;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.InputFiles;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import io.rocket.core.ResultCodec;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The input benchmark's application: large files, a parse that touches every byte (the mean of each of
 * {@value #BLOCKS} blocks), and a compare of a chosen cost (the L1 distance of two sketches, repeated), so that
 * reading the inputs and computing on them can be weighed against each other.
 */
final class BlockSketchApp extends FileItemApplication<Double> {
    static final int BLOCKS = 4096;

    private final int compareRounds;

    /** @param compareRounds passes over the two sketches per compare (about 4 µs each): the compare's cost */
    BlockSketchApp(long maxFileBytes, int compareRounds) {
        super(maxFileBytes);
        this.compareRounds = compareRounds;
    }

    @Override
    public String name() {
        return "block-sketch";
    }

    @Override
    public long maxInputBytes() {
        return (long) BLOCKS * Float.BYTES;
    }

    @Override
    public long maxItemBytes() {
        return maxInputBytes();
    }

    @Override
    public long maxResultBytes() {
        return Double.BYTES;
    }

    @Override
    public long parse(Path key, InputFiles files, HostBuffer output) {
        ByteBuffer in = files.bytes(0);
        int size = in.remaining();
        ByteBuffer out = window(output.byteBuffer(), maxInputBytes());
        for (int b = 0; b < BLOCKS; b++) {
            int from = (int) ((long) size * b / BLOCKS);
            int to = (int) ((long) size * (b + 1) / BLOCKS);
            long sum = 0;
            for (int k = from; k < to; k++) {
                sum += in.get(k) & 0xff;
            }
            out.putFloat(b * Float.BYTES, to > from ? (float) sum / (to - from) : 0f);
        }
        return maxInputBytes();
    }

    @Override
    public Kernels<Path> kernels(DeviceKind kind) {
        if (kind != DeviceKind.CPU) {
            throw new UnsupportedOperationException("block-sketch has cpu kernels only");
        }
        return new Kernels<>() {
            @Override
            public long preprocess(Path key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
                output.byteBuffer().put(0, input.byteBuffer(), 0, (int) input.length());
                return input.length();
            }

            @Override
            public long compare(Path a, DeviceBuffer left, Path b, DeviceBuffer right, DeviceBuffer result,
                                KernelContext context) {
                ByteBuffer x = left.byteBuffer();
                ByteBuffer y = right.byteBuffer();
                double d = 0;
                for (int round = 0; round < compareRounds; round++) {
                    double sum = 0;
                    for (int k = 0; k < BLOCKS; k++) {
                        sum += Math.abs(x.getFloat(k * Float.BYTES) - y.getFloat(k * Float.BYTES));
                    }
                    d = sum / BLOCKS;
                }
                result.byteBuffer().putDouble(0, d);
                return Double.BYTES;
            }
        };
    }

    @Override
    public ResultCodec<Double> resultCodec() {
        return ResultCodec.DOUBLE;
    }

    @Override
    public Double postprocess(Path left, Path right, HostBuffer result) {
        return result.byteBuffer().getDouble(0);
    }
}
