package io.rocket.testapp;

import io.rocket.core.Application;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.InputFiles;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import io.rocket.core.ResultCodec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test application written the way most Java programmers first write one: every step uses relative gets and puts
 * only, and never resets a position itself. A pair's result is {@code left + "|" + right}, carried through every
 * step: parse writes the key's text, preprocess stores it reversed with a checksum, compare checks and un-reverses
 * both items, postprocess reads the result. Generated items (no input files).
 *
 * <p>Every step also checks the hand-over rule itself (position 0; limit at capacity for a buffer to fill, at its
 * length for one to read) and counts how often it was handed each buffer, so a test can show that every pooled
 * buffer was reused.
 */
public final class RelativeStrings implements Application<String, String> {
    static final int MAX_TEXT = 48;

    /** Hand-overs of each buffer, by step: parse output, preprocess input/output, compare items/result, result. */
    public final Map<String, Map<ByteBuffer, Integer>> handOvers = new ConcurrentHashMap<>();

    /** What a pair's result must be. */
    public static String expected(String left, String right) {
        return left + "|" + right;
    }

    @Override
    public List<Path> inputFiles(String key) {
        return List.of();
    }

    @Override
    public long maxInputBytes() {
        return Integer.BYTES + MAX_TEXT;
    }

    @Override
    public long maxItemBytes() {
        return Integer.BYTES + MAX_TEXT + Long.BYTES;
    }

    @Override
    public long maxResultBytes() {
        return Integer.BYTES + 2 * MAX_TEXT + 1;
    }

    @Override
    public long parse(String key, InputFiles files, HostBuffer output) {
        ByteBuffer out = handed("parse output", output.byteBuffer(), output.capacity());
        byte[] text = key.getBytes(StandardCharsets.UTF_8);
        out.putInt(text.length);
        out.put(text);
        return out.position();
    }

    @Override
    public Kernels<String> kernels(DeviceKind kind) {
        if (kind != DeviceKind.CPU) {
            throw new UnsupportedOperationException("cpu only");
        }
        return new Kernels<>() {
            @Override
            public long preprocess(String key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
                ByteBuffer in = handed("preprocess input", input.byteBuffer(), input.length());
                byte[] text = new byte[in.getInt()];
                in.get(text);
                ByteBuffer out = handed("preprocess output", output.byteBuffer(), output.capacity());
                out.putInt(text.length);
                for (int k = text.length - 1; k >= 0; k--) {
                    out.put(text[k]);
                }
                out.putLong(checksum(text));
                return out.position();
            }

            @Override
            public long compare(String leftKey, DeviceBuffer left, String rightKey, DeviceBuffer right,
                                DeviceBuffer result, KernelContext context) {
                byte[] a = item(handed("compare item", left.byteBuffer(), left.length()));
                byte[] b = item(handed("compare item", right.byteBuffer(), right.length()));
                ByteBuffer out = handed("compare result", result.byteBuffer(), result.capacity());
                out.putInt(a.length + 1 + b.length);
                out.put(a);
                out.put((byte) '|');
                out.put(b);
                return out.position();
            }
        };
    }

    /** A cached item's text, read with relative gets; checks the checksum preprocess stored. */
    private static byte[] item(ByteBuffer in) {
        byte[] text = new byte[in.getInt()];
        for (int k = text.length - 1; k >= 0; k--) {
            text[k] = in.get();
        }
        if (in.getLong() != checksum(text) || in.hasRemaining()) {
            throw new IllegalStateException("cached item damaged");
        }
        return text;
    }

    private static long checksum(byte[] text) {
        long sum = 17;
        for (byte b : text) {
            sum = sum * 31 + b;
        }
        return sum;
    }

    @Override
    public String postprocess(String left, String right, HostBuffer result) {
        ByteBuffer in = handed("postprocess result", result.byteBuffer(), result.length());
        byte[] text = new byte[in.getInt()];
        in.get(text);
        if (in.hasRemaining()) {
            throw new IllegalStateException(in.remaining() + " bytes after the result");
        }
        return new String(text, StandardCharsets.UTF_8);
    }

    @Override
    public ResultCodec<String> resultCodec() {
        return ResultCodec.STRING;
    }

    /** The buffer a step was handed, after checking it starts at 0 with the expected limit and counting it. */
    private ByteBuffer handed(String step, ByteBuffer buffer, long limit) {
        if (buffer.position() != 0 || buffer.limit() != limit) {
            throw new IllegalStateException(step + " handed over at position " + buffer.position() + ", limit "
                    + buffer.limit() + " (expected 0, " + limit + ")");
        }
        handOvers.computeIfAbsent(step, s -> Collections.synchronizedMap(new IdentityHashMap<>()))
                .merge(buffer, 1, Integer::sum);
        return buffer;
    }
}
