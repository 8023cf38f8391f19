package io.rocket.testapp;

import io.rocket.core.Application;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.InputFiles;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import io.rocket.core.ResultCodec;
import picocli.CommandLine.Option;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * Test application: the Dice similarity of the sets of q-grams of two texts, with the q-gram length as an
 * application option ({@code --q}). Subclasses say where a key's text comes from. The option lives here, in a
 * generic superclass, so the main class must find both the option and the key type through the hierarchy.
 *
 * @param <K> key type
 */
public abstract class TextSimilarity<K> implements Application<K, Double> {
    static final int MAX_TEXT = 4096;

    @Option(names = "--q", paramLabel = "Q", defaultValue = "2", description = "q-gram length. Default: ${DEFAULT-VALUE}.")
    public int q;

    /** The Dice similarity 2|A∩B| / (|A| + |B|) of the q-gram sets of a and b (1 for two texts without q-grams). */
    public static double similarity(String a, String b, int q) {
        Set<String> x = grams(a, q);
        Set<String> y = grams(b, q);
        if (x.isEmpty() && y.isEmpty()) {
            return a.equals(b) ? 1.0 : 0.0;
        }
        int common = 0;
        for (String g : x) {
            if (y.contains(g)) {
                common++;
            }
        }
        return 2.0 * common / (x.size() + y.size());
    }

    private static Set<String> grams(String s, int q) {
        Set<String> grams = new HashSet<>();
        for (int i = 0; i + q <= s.length(); i++) {
            grams.add(s.substring(i, i + q));
        }
        return grams;
    }

    /** The text of a key. */
    protected abstract byte[] text(K key, InputFiles files) throws Exception;

    @Override
    public long maxInputBytes() {
        return MAX_TEXT;
    }

    @Override
    public long maxItemBytes() {
        return MAX_TEXT;
    }

    @Override
    public long maxResultBytes() {
        return Double.BYTES;
    }

    @Override
    public long parse(K key, InputFiles files, HostBuffer output) throws Exception {
        byte[] text = text(key, files);
        if (text.length > MAX_TEXT) {
            throw new IllegalArgumentException("text of " + text.length + " bytes, at most " + MAX_TEXT);
        }
        output.byteBuffer().put(0, text);
        return text.length;
    }

    @Override
    public Kernels<K> kernels(DeviceKind kind) {
        if (kind != DeviceKind.CPU) {
            throw new UnsupportedOperationException("cpu only");
        }
        return new Kernels<>() {
            @Override
            public long preprocess(K key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
                output.byteBuffer().put(0, input.byteBuffer(), 0, (int) input.length());
                return input.length();
            }

            @Override
            public long compare(K leftKey, DeviceBuffer left, K rightKey, DeviceBuffer right, DeviceBuffer result,
                                KernelContext context) {
                result.byteBuffer().putDouble(0, similarity(string(left), string(right), q));
                return Double.BYTES;
            }
        };
    }

    private static String string(DeviceBuffer buffer) {
        byte[] bytes = new byte[(int) buffer.length()];
        ByteBuffer memory = buffer.byteBuffer();
        memory.get(0, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public ResultCodec<Double> resultCodec() {
        return ResultCodec.DOUBLE;
    }

    @Override
    public Double postprocess(K left, K right, HostBuffer result) {
        return result.byteBuffer().getDouble(0);
    }
}
