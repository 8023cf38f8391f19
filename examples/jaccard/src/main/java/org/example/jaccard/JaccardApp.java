package org.example.jaccard;

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
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Jaccard similarity |A ∩ B| / |A ∪ B| of every pair of text documents, where A and B are the sets of character
 * k-shingles of the documents' normalised text (lower case, every run of other characters than letters and digits
 * one space). Loading a document hashes its shingles into a sorted set of distinct 64-bit values; comparing two
 * documents merges their sets.
 *
 * <p>Run it with Rocket's main class: {@code java -cp target/classes:rocket.jar io.rocket.Main
 * org.example.jaccard.JaccardApp --k 5 docs/}.
 */
public final class JaccardApp implements Application<Path, Double> {

    @Option(names = "--k", description = "Shingle length in characters. Default: ${DEFAULT-VALUE}.")
    int k = 5;

    @Option(names = "--max-document-size", paramLabel = "BYTES",
            description = "Largest document in bytes (sizes the cache slots). Default: ${DEFAULT-VALUE}.")
    long maxDocumentBytes = 1 << 20;

    @Override
    public String label(Path key) {
        return key.getFileName().toString();
    }

    @Override
    public List<Path> inputFiles(Path key) {
        return List.of(key);
    }

    @Override
    public long maxFileBytes() {
        return maxDocumentBytes;
    }

    @Override
    public long maxInputBytes() {
        return Long.BYTES * maxDocumentBytes; // at most one shingle per character
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
        long[] shingles = shingles(StandardCharsets.UTF_8.decode(files.bytes(0)).toString(), k);
        if (shingles.length == 0) {
            throw new IllegalArgumentException("fewer than " + k + " letters and digits: no shingles");
        }
        for (int s = 0; s < shingles.length; s++) {
            output.byteBuffer().putLong(s * Long.BYTES, shingles[s]);
        }
        return (long) Long.BYTES * shingles.length;
    }

    /** The sorted distinct hashes of the k-shingles of {@code text}'s normalised form. */
    static long[] shingles(String text, int k) {
        String norm = text.toLowerCase().replaceAll("[^\\p{L}\\p{N}]+", " ").trim();
        long[] hashes = new long[Math.max(0, norm.length() - k + 1)];
        for (int start = 0; start < hashes.length; start++) {
            long h = 0xcbf29ce484222325L; // FNV-1a, 64 bits
            for (int c = start; c < start + k; c++) {
                h = (h ^ norm.charAt(c)) * 0x100000001b3L;
            }
            hashes[start] = h;
        }
        return Arrays.stream(hashes).sorted().distinct().toArray();
    }

    @Override
    public Kernels<Path> kernels(DeviceKind kind) {
        if (kind == DeviceKind.CUDA) {
            return new JaccardCudaKernels();
        }
        if (kind != DeviceKind.CPU) {
            throw new UnsupportedOperationException("JaccardApp has kernels for cpu and cuda devices");
        }
        return new Kernels<>() {
            @Override
            public long preprocess(Path key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
                output.byteBuffer().put(0, input.byteBuffer(), 0, (int) input.length()); // the item is the set
                return input.length();
            }

            @Override
            public long compare(Path a, DeviceBuffer left, Path b, DeviceBuffer right, DeviceBuffer result,
                                KernelContext context) {
                result.byteBuffer().putDouble(0, jaccard(left.byteBuffer(), (int) (left.length() / Long.BYTES),
                        right.byteBuffer(), (int) (right.length() / Long.BYTES)));
                return Double.BYTES;
            }
        };
    }

    /** Merges two sorted sets of {@code n} and {@code m} longs; no allocation, as it runs once per pair. */
    static double jaccard(ByteBuffer a, int n, ByteBuffer b, int m) {
        int i = 0;
        int j = 0;
        int common = 0;
        while (i < n && j < m) {
            long x = a.getLong(i * Long.BYTES);
            long y = b.getLong(j * Long.BYTES);
            if (x == y) {
                common++;
            }
            if (x <= y) {
                i++;
            }
            if (y <= x) {
                j++;
            }
        }
        return (double) common / (n + m - common);
    }

    @Override
    public ResultCodec<Double> resultCodec() {
        return ResultCodec.DOUBLE; // results travel to rank 0 in a cluster run
    }

    @Override
    public Double postprocess(Path left, Path right, HostBuffer result) {
        return result.byteBuffer().getDouble(0);
    }
}
