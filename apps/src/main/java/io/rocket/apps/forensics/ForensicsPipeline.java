package io.rocket.apps.forensics;

import java.nio.ByteBuffer;

/**
 * The forensics app's steps for one photo collection (one image size, one metric), each a thin call for the
 * runtime's app contract: {@link #parse} (CPU), {@link #preprocess} and {@link #compare} (the cpu device's
 * kernels), {@link #score} (postprocess), and the slot sizes.
 *
 * <p>Immutable and thread-safe: the per-thread state (JPEG decoder, {@link PrnuWorkspace},
 * {@link PceWorkspace}) lives in thread-locals created on a thread's first call, so a thread that only compares
 * never pays for preprocessing scratch. Overloads taking an explicit workspace are there for callers that manage
 * their own. Buffers are read and written by absolute index in their own byte order, positions untouched.
 *
 * <p>Result layout (at the result buffer's position): {@code offset 0 double score} ({@link #RESULT_BYTES}
 * bytes), the NCC or PCE of the pair.
 */
public final class ForensicsPipeline {

    /** Bytes of one pair result. */
    public static final int RESULT_BYTES = 8;

    private final int width;
    private final int height;
    private final Metric metric;
    private final ThreadLocal<JpegGrayDecoder> decoders = ThreadLocal.withInitial(JpegGrayDecoder::new);
    private final ThreadLocal<PrnuWorkspace> prnuWorkspaces;
    private final ThreadLocal<PceWorkspace> pceWorkspaces;

    /** Steps for photos of {@code width}×{@code height} pixels compared by {@code metric}. */
    public ForensicsPipeline(int width, int height, Metric metric) {
        if (width < 2 || height < 2) {
            throw new IllegalArgumentException("photos must be at least 2x2, got " + width + "x" + height);
        }
        this.width = width;
        this.height = height;
        this.metric = metric;
        this.prnuWorkspaces = ThreadLocal.withInitial(() -> new PrnuWorkspace(height, width));
        this.pceWorkspaces = ThreadLocal.withInitial(() -> new PceWorkspace(height, width));
    }

    /** Photo width in pixels. */
    public int width() {
        return width;
    }

    /** Photo height in pixels. */
    public int height() {
        return height;
    }

    /** The similarity measure. */
    public Metric metric() {
        return metric;
    }

    /** The largest parsed item (a GRAY image). */
    public long maxParsedBytes() {
        return PrnuLayout.grayBytes(height, width);
    }

    /** The largest cached item: the slot size. */
    public long maxItemBytes() {
        return PrnuLayout.itemBytes(metric, height, width);
    }

    /** Parse: JPEG file bytes → GRAY item. */
    public long parse(String label, ByteBuffer fileBytes, ByteBuffer out) throws PhotoFormatException {
        return decoders.get().decode(label, fileBytes, out, width, height);
    }

    /** Preprocess: GRAY item → PATTERN (NCC) or SPECTRUM (PCE) item. */
    public long preprocess(String label, ByteBuffer in, ByteBuffer out) {
        return preprocess(label, in, out, prnuWorkspaces.get());
    }

    /** Preprocess with a caller-owned workspace. */
    public long preprocess(String label, ByteBuffer in, ByteBuffer out, PrnuWorkspace workspace) {
        return PrnuExtractor.extract(label, in, out, metric, workspace);
    }

    /** Compare: writes the pair's score at {@code result.position()}. */
    public void compare(ByteBuffer left, ByteBuffer right, ByteBuffer result) {
        result.putDouble(result.position(), similarity(left, right));
    }

    /** Compare with a caller-owned PCE workspace (unused for NCC, which may pass null). */
    public void compare(ByteBuffer left, ByteBuffer right, ByteBuffer result, PceWorkspace workspace) {
        result.putDouble(result.position(), metric == Metric.PCE ? PceComparator.pce(left, right, workspace)
                : NccComparator.ncc(left, right));
    }

    /** The similarity of two cached items. */
    public double similarity(ByteBuffer left, ByteBuffer right) {
        return metric == Metric.PCE ? PceComparator.pce(left, right, pceWorkspaces.get())
                : NccComparator.ncc(left, right);
    }

    /** Postprocess: reads a score written by {@link #compare}. */
    public static double score(ByteBuffer result) {
        return result.getDouble(result.position());
    }
}
