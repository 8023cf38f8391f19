package io.rocket.apps.forensics;

import java.nio.ByteBuffer;

/**
 * The flat binary layouts of the forensics app's items, as they sit in fixed-size off-heap slots, and their sizes.
 *
 * <p>Every item starts at the buffer's position with a 16-byte header, then its data; all values are in the
 * buffer's byte order (the runtime sets little-endian) and are read and written by absolute index, so the caller's
 * position and limit are never moved. The 16-byte header keeps the float data 16-byte aligned for vector loads on
 * a device.
 * <pre>
 *   offset  0  int   kind    {@link #KIND_GRAY} | {@link #KIND_PATTERN} | {@link #KIND_SPECTRUM}
 *   offset  4  int   height  h (rows)
 *   offset  8  int   width   w (columns)
 *   offset 12  int   0       (reserved)
 *   offset 16  data:
 *     GRAY      h·w float32, row-major: gray(r, c) at 16 + 4·(r·w + c); 0.299 R + 0.587 G + 0.114 B, 0..255
 *     PATTERN   h·w float32, row-major: the PRNU pattern (output of the Wiener step), the item for NCC
 *     SPECTRUM  h·(w/2+1) complex float32 pairs (re, im), row-major: X(r, c) for 0 ≤ c ≤ w/2 at
 *               16 + 8·(r·(w/2+1) + c); the R2C half of the pattern's unnormalised DFT, the item for PCE
 * </pre>
 * The parsed item (output of parse, input of preprocess) is GRAY; the preprocessed (cached) item is PATTERN for
 * {@link Metric#NCC} and SPECTRUM for {@link Metric#PCE}. A SPECTRUM item takes 8·h·(w/2+1) data bytes, about the
 * same as a PATTERN (4·h·w): caching the transform saves two forward FFTs per pair at no cost in slot size.
 */
public final class PrnuLayout {

    /** Bytes before the data of every item. */
    public static final int HEADER_BYTES = 16;
    /** A decoded gray image (parse output). */
    public static final int KIND_GRAY = 0x47524159;
    /** A PRNU pattern in the pixel domain (NCC item). */
    public static final int KIND_PATTERN = 0x50415454;
    /** The R2C half spectrum of a PRNU pattern (PCE item). */
    public static final int KIND_SPECTRUM = 0x53504543;

    private PrnuLayout() {
    }

    /** Bytes of a GRAY item of h × w pixels. */
    public static long grayBytes(int height, int width) {
        return HEADER_BYTES + 4L * height * width;
    }

    /** Bytes of a PATTERN item of h × w pixels. */
    public static long patternBytes(int height, int width) {
        return HEADER_BYTES + 4L * height * width;
    }

    /** Bytes of a SPECTRUM item for h × w pixels: h·(w/2+1) complex float values. */
    public static long spectrumBytes(int height, int width) {
        return HEADER_BYTES + 8L * height * (width / 2 + 1);
    }

    /** Bytes of the cached item for a metric. */
    public static long itemBytes(Metric metric, int height, int width) {
        return metric == Metric.PCE ? spectrumBytes(height, width) : patternBytes(height, width);
    }

    /** Writes a header at {@code base} (absolute). */
    public static void writeHeader(ByteBuffer buffer, int base, int kind, int height, int width) {
        buffer.putInt(base, kind);
        buffer.putInt(base + 4, height);
        buffer.putInt(base + 8, width);
        buffer.putInt(base + 12, 0);
    }

    /** The kind stored at {@code base}. */
    public static int kind(ByteBuffer buffer, int base) {
        return buffer.getInt(base);
    }

    /** The height stored at {@code base}. */
    public static int height(ByteBuffer buffer, int base) {
        return buffer.getInt(base + 4);
    }

    /** The width stored at {@code base}. */
    public static int width(ByteBuffer buffer, int base) {
        return buffer.getInt(base + 8);
    }

    /**
     * Checks that the item at the buffer's position is of {@code kind}, with sane dimensions that fit in the buffer.
     *
     * @throws IllegalArgumentException naming {@code what} and the problem
     */
    public static void check(ByteBuffer buffer, int kind, String what) {
        int base = buffer.position();
        if (buffer.limit() - base < HEADER_BYTES) {
            throw new IllegalArgumentException(what + ": no item header (" + (buffer.limit() - base) + " bytes)");
        }
        int found = kind(buffer, base);
        if (found != kind) {
            throw new IllegalArgumentException(what + ": expected a " + kindName(kind) + " item but found "
                    + kindName(found));
        }
        int h = height(buffer, base);
        int w = width(buffer, base);
        if (h < 1 || w < 1) {
            throw new IllegalArgumentException(what + ": bad dimensions " + w + "x" + h);
        }
        long need = kind == KIND_SPECTRUM ? spectrumBytes(h, w) : grayBytes(h, w);
        if (buffer.limit() - base < need) {
            throw new IllegalArgumentException(what + ": " + kindName(kind) + " item of " + w + "x" + h + " needs "
                    + need + " bytes but the buffer holds " + (buffer.limit() - base));
        }
    }

    /** A readable name for a kind tag. */
    public static String kindName(int kind) {
        switch (kind) {
            case KIND_GRAY:
                return "GRAY";
            case KIND_PATTERN:
                return "PATTERN";
            case KIND_SPECTRUM:
                return "SPECTRUM";
            default:
                return "unknown (0x" + Integer.toHexString(kind) + ")";
        }
    }
}
