package io.rocket.apps.forensics;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.Locale;

/**
 * Decodes the first (luma) component of a sequential Huffman-coded 8-bit JPEG (SOF0 baseline, SOF1 extended) to
 * float samples, the forensics app's gray image, without colour conversion: for a YCbCr photo the gray value
 * 0.299 R + 0.587 G + 0.114 B of the encoder's RGB <em>is</em> Y (the chroma terms of the JFIF conversion cancel
 * in those weights), so only Y is transformed. The chroma blocks still have to be read to find where the next luma
 * block starts, but only their code lengths are looked up; their values are never decoded, dequantized or
 * transformed. Samples are bit-identical to libjpeg's default ({@link JpegIdct islow}) decoding of that
 * component.
 *
 * <p>What it does not decode (progressive, lossless or arithmetic-coded frames, 12-bit samples, RGB/CMYK colour
 * encodings, a luma component sampled below the others, a height given later by a DNL marker) is reported by
 * {@link #readFrame} as not {@link #FAST}, and the caller decodes such a photo another way.
 *
 * <p>Speed: the Huffman codes are found with {@link JpegHuffmanTable}'s {@value JpegHuffmanTable#FAST_BITS}-bit
 * lookup tables (a DC code and its value bits in one lookup); the bit buffer is a 64-bit word refilled four bytes at a time when those bytes hold no
 * 0xFF (byte stuffing and markers need the byte-wise path); dequantization happens as a coefficient is decoded
 * (only the non-zero ones); and each block is transformed straight into a stripe of float rows that is copied to
 * the output in bulk. Nothing is allocated per block or per photo once the buffers have grown to the photo size.
 *
 * <p>Errors in the data (a segment running past the end, a bad Huffman code, a missing restart marker, scan data
 * ending before the image is complete, bytes where a marker belongs) throw {@link DataException} with what and
 * where; the caller decides whether the file was truncated or corrupt. Not thread-safe: one per thread.
 */
final class JpegLumaDecoder {

    /** {@link #readFrame}: the photo can be decoded here. */
    static final int FAST = 1;
    /** {@link #readFrame}: a valid frame header this decoder does not handle. */
    static final int OTHER = 0;

    /** A problem in the JPEG data, with the byte offset it was found at. */
    static final class DataException extends Exception {
        private static final long serialVersionUID = 1L;

        DataException(String detail) {
            super(detail);
        }
    }

    private static final VarHandle INT_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final int FAST_BITS = JpegHuffmanTable.FAST_BITS;

    /**
     * Natural-order position of the k-th zig-zag coefficient, with 16 extra entries that send a run past the end
     * of the block (only in corrupt data) to the last coefficient, as libjpeg does, instead of out of bounds.
     */
    static final int[] ZIGZAG = {0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41,
        34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52,
        45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
        63, 63};

    private static final int SOF0 = 0xC0;
    private static final int SOF1 = 0xC1;
    private static final int DHT = 0xC4;
    private static final int DAC = 0xCC;
    private static final int RST0 = 0xD0;
    private static final int SOI = 0xD8;
    private static final int EOI = 0xD9;
    private static final int SOS = 0xDA;
    private static final int DQT = 0xDB;
    private static final int DNL = 0xDC;
    private static final int DRI = 0xDD;
    private static final int APP0 = 0xE0;
    private static final int APP14 = 0xEE;

    private final JpegHuffmanTable[] dcTables = new JpegHuffmanTable[4];
    private final JpegHuffmanTable[] acTables = new JpegHuffmanTable[4];
    /** Quantization tables in zig-zag order, padded like {@link #ZIGZAG}. */
    private final int[][] quant = new int[4][80];
    private final boolean[] quantDefined = new boolean[4];
    private final int[] counts = new int[16];

    // the frame
    private int width;
    private int height;
    private int frameComponents;
    private int precision;
    private final int[] componentId = new int[4];
    private final int[] sampleH = new int[4];
    private final int[] sampleV = new int[4];
    private final int[] quantIndex = new int[4];
    private int maxH;
    private int maxV;
    private int restartInterval;
    private int adobeTransform;
    private boolean frameSeen;

    // the input and the bit reader
    private byte[] data;
    private int start;
    private int pos;
    private int end;
    /** The next bits of the scan, left-aligned: the top {@link #nbits} bits are valid. */
    private long buf;
    private int nbits;
    /** Zero bits appended after the scan data ended (at a marker or the end of the file): they are not data. */
    private int padBits;
    /** Whether the reader stopped at a marker or the end of the data. */
    private boolean stopped;
    /** The marker the reader stopped at, or -1 for the end of the data. */
    private int stopMarker;

    // per-block scratch
    private final int[] coef = new int[64];
    private final int[] work = new int[64];
    private final int[] lumaQuant = new int[80];
    private float[] stripe = new float[0];

    JpegLumaDecoder() {
        for (int i = 0; i < 4; i++) {
            dcTables[i] = new JpegHuffmanTable();
            acTables[i] = new JpegHuffmanTable();
        }
    }

    /** Drops the reference to the last photo's bytes (they may be the caller's array). */
    void release() {
        data = null;
    }

    /** Number of components of the frame read by {@link #readFrame}. */
    int components() {
        return frameComponents;
    }

    /** Width of the frame read by {@link #readFrame}. */
    int width() {
        return width;
    }

    /** Height of the frame read by {@link #readFrame} (0 when a DNL marker gives it later). */
    int height() {
        return height;
    }

    /**
     * Reads the markers from the start of {@code bytes[from, to)} (a JPEG starting with SOI) up to and including
     * the frame header, keeping the tables seen on the way.
     *
     * @return {@link #FAST} when {@link #decode} can continue with this photo, {@link #OTHER} for another kind of
     *         frame (width and height are still set)
     */
    int readFrame(byte[] bytes, int from, int to) throws DataException {
        data = bytes;
        start = from;
        pos = from + 2; // the caller checked SOI
        end = to;
        restartInterval = 0;
        adobeTransform = -1;
        frameSeen = false;
        lumaDone = false;
        for (int i = 0; i < 4; i++) {
            quantDefined[i] = false;
            dcTables[i].clear();
            acTables[i].clear();
        }
        while (true) {
            int marker = nextMarker();
            if (isFrameMarker(marker)) {
                readFrameHeader(marker);
                return marker == SOF0 || marker == SOF1 ? supported() : OTHER;
            }
            switch (marker) {
                case SOS -> throw new DataException("scan (SOS) before the frame header at byte " + offset(pos - 2));
                case EOI -> throw new DataException("no frame header before EOI at byte " + offset(pos - 2));
                case SOI -> throw new DataException("second SOI marker at byte " + offset(pos - 2));
                default -> readTableOrSkip(marker);
            }
        }
    }

    /** Whether a marker starts a frame header (SOF0..SOF15 less DHT, JPG and DAC). */
    private static boolean isFrameMarker(int marker) {
        return marker >= 0xC0 && marker <= 0xCF && marker != DHT && marker != 0xC8 && marker != DAC;
    }

    private int supported() {
        if (height == 0 || precision != 8) {
            return OTHER; // a DNL marker gives the height later; 12- or 16-bit samples
        }
        if (frameComponents == 1) {
            return FAST;
        }
        if (frameComponents != 3 || adobeTransform == 0
                || (componentId[0] == 'R' && componentId[1] == 'G' && componentId[2] == 'B')) {
            return OTHER; // RGB, CMYK/YCCK or two-channel encodings: no luma component to take
        }
        // Y must have the full resolution; a Y sampled below the chroma would need upsampling
        return sampleH[0] == maxH && sampleV[0] == maxV ? FAST : OTHER;
    }

    /**
     * Continues after {@link #readFrame} returned {@link #FAST}: reads on to the scan holding the first
     * component and writes its samples as {@code height} rows of {@code width} floats at {@code out}'s index
     * {@code outIndex}.
     *
     * @return true when done; false when a marker met on the way makes the photo one this decoder does not handle
     *         (nothing was written then)
     */
    boolean decode(FloatBuffer out, int outIndex) throws DataException {
        while (true) {
            int marker = nextMarker();
            switch (marker) {
                case SOS -> {
                    boolean lumaScan = readScanHeader();
                    if (supported() != FAST) {
                        return false; // an Adobe marker after the frame header said RGB
                    }
                    if (lumaScan) {
                        decodeScan(out, outIndex);
                        return true;
                    }
                    skipScanData();
                }
                case EOI -> throw new DataException("no scan of the first component before EOI at byte "
                        + offset(pos - 2));
                case SOI -> throw new DataException("second SOI marker at byte " + offset(pos - 2));
                case DNL -> throw new DataException("DNL marker at byte " + offset(pos - 2) + " for a frame "
                        + "whose height is set");
                default -> {
                    if (isFrameMarker(marker)) {
                        throw new DataException("second frame header at byte " + offset(pos - 2));
                    }
                    readTableOrSkip(marker);
                }
            }
        }
    }

    // ---------------------------------------------------------------- markers

    private int offset(int p) {
        return p - start;
    }

    /** The next marker code, after any 0xFF fill bytes; {@code pos} moves past it. */
    private int nextMarker() throws DataException {
        if (pos >= end) {
            throw new DataException("the data end at byte " + offset(pos) + " where a marker should follow");
        }
        if ((data[pos] & 0xFF) != 0xFF) {
            int p = pos;
            while (p < end && (data[p] & 0xFF) != 0xFF) {
                p++;
            }
            throw new DataException((p - pos) + " extraneous bytes at byte " + offset(pos) + " where a marker "
                    + "should be");
        }
        while (pos < end && (data[pos] & 0xFF) == 0xFF) {
            pos++;
        }
        if (pos >= end) {
            throw new DataException("the data end inside a marker at byte " + offset(pos));
        }
        int marker = data[pos++] & 0xFF;
        if (marker == 0) {
            throw new DataException("stuffed 0xFF00 outside a scan at byte " + offset(pos - 2));
        }
        return marker;
    }

    /** The length of the segment at {@code pos} (its 2 length bytes included), checked against the data. */
    private int segmentLength(int marker) throws DataException {
        if (pos + 2 > end) {
            throw new DataException("the data end in the length of marker " + name(marker) + " at byte "
                    + offset(pos - 2));
        }
        int len = u16(pos);
        if (len < 2) {
            throw new DataException("marker " + name(marker) + " at byte " + offset(pos - 2) + " has length " + len);
        }
        if (pos + len > end) {
            throw new DataException("segment " + name(marker) + " at byte " + offset(pos - 2) + " (" + len
                    + " bytes) runs past the end of the data");
        }
        return len;
    }

    private int u16(int p) {
        return ((data[p] & 0xFF) << 8) | (data[p + 1] & 0xFF);
    }

    private static String name(int marker) {
        return String.format(Locale.ROOT, "0xFF%02X", marker);
    }

    private void readTableOrSkip(int marker) throws DataException {
        if (marker >= RST0 && marker <= RST0 + 7 || marker == 0x01) {
            return; // stand-alone markers without a segment (a stray RSTn outside a scan carries nothing)
        }
        int len = segmentLength(marker);
        int segment = pos + 2;
        int segmentEnd = pos + len;
        switch (marker) {
            case DQT -> readQuantTables(segment, segmentEnd);
            case DHT -> readHuffmanTables(segment, segmentEnd);
            case DRI -> {
                if (len != 4) {
                    throw new DataException("DRI segment at byte " + offset(pos - 2) + " has length " + len);
                }
                restartInterval = u16(segment);
            }
            case APP14 -> {
                if (len >= 14 && data[segment] == 'A' && data[segment + 1] == 'd' && data[segment + 2] == 'o'
                        && data[segment + 3] == 'b' && data[segment + 4] == 'e') {
                    adobeTransform = data[segment + 11] & 0xFF;
                }
            }
            default -> {
                // APPn, COM and others: nothing the gray image needs
            }
        }
        pos = segmentEnd;
    }

    private void readQuantTables(int p, int segmentEnd) throws DataException {
        while (p < segmentEnd) {
            int pq = (data[p] & 0xFF) >> 4;
            int tq = data[p] & 0x0F;
            p++;
            int bytes = pq == 0 ? 64 : 128;
            if (pq > 1 || tq > 3 || p + bytes > segmentEnd) {
                throw new DataException("bad quantization table (precision " + pq + ", id " + tq + ") at byte "
                        + offset(p - 1));
            }
            int[] q = quant[tq];
            for (int k = 0; k < 64; k++) {
                q[k] = pq == 0 ? data[p + k] & 0xFF : u16(p + 2 * k);
            }
            for (int k = 64; k < 80; k++) {
                q[k] = q[63];
            }
            quantDefined[tq] = true;
            p += bytes;
        }
    }

    private void readHuffmanTables(int p, int segmentEnd) throws DataException {
        while (p < segmentEnd) {
            int tc = (data[p] & 0xFF) >> 4;
            int th = data[p] & 0x0F;
            if (tc > 1 || th > 3 || p + 17 > segmentEnd) {
                throw new DataException("bad Huffman table (class " + tc + ", id " + th + ") at byte "
                        + offset(p));
            }
            int total = 0;
            for (int i = 0; i < 16; i++) {
                counts[i] = data[p + 1 + i] & 0xFF;
                total += counts[i];
            }
            p += 17;
            if (total > 256 || p + total > segmentEnd) {
                throw new DataException("bad Huffman table (" + total + " codes) at byte " + offset(p - 17));
            }
            int[] symbols = new int[total];
            for (int i = 0; i < total; i++) {
                symbols[i] = data[p + i] & 0xFF;
            }
            String problem = (tc == 0 ? dcTables : acTables)[th].define(counts, symbols, tc == 0);
            if (problem != null) {
                throw new DataException("bad " + problem + " at byte " + offset(p - 17));
            }
            p += total;
        }
    }

    private void readFrameHeader(int marker) throws DataException {
        int at = pos - 2;
        if (frameSeen) {
            throw new DataException("second frame header at byte " + offset(at));
        }
        int len = segmentLength(marker);
        if (len < 8) {
            throw new DataException("frame header at byte " + offset(at) + " has length " + len);
        }
        int p = pos + 2;
        precision = data[p] & 0xFF;
        height = u16(p + 1);
        width = u16(p + 3);
        frameComponents = data[p + 5] & 0xFF;
        if (len != 8 + 3 * frameComponents || frameComponents == 0) {
            throw new DataException("frame header at byte " + offset(at) + " with " + frameComponents
                    + " components has length " + len);
        }
        if (width == 0) {
            throw new DataException("frame header at byte " + offset(at) + " says the image is 0 pixels wide");
        }
        maxH = 1;
        maxV = 1;
        for (int c = 0; c < frameComponents; c++) {
            int q = p + 6 + 3 * c;
            int h = (data[q + 1] & 0xFF) >> 4;
            int v = data[q + 1] & 0x0F;
            if (h < 1 || h > 4 || v < 1 || v > 4) {
                throw new DataException("bad sampling factors " + h + "x" + v + " in the frame header at byte "
                        + offset(at));
            }
            if (c < 4) {
                componentId[c] = data[q] & 0xFF;
                sampleH[c] = h;
                sampleV[c] = v;
                quantIndex[c] = data[q + 2] & 0xFF;
            }
            maxH = Math.max(maxH, h);
            maxV = Math.max(maxV, v);
        }
        frameSeen = true;
        pos += len;
    }

    // ---------------------------------------------------------------- scans

    // the current scan: frame component index, tables and blocks per MCU of each component in it
    private int scanCount;
    private final int[] scanComponent = new int[4];
    private final JpegHuffmanTable[] scanDc = new JpegHuffmanTable[4];
    private final JpegHuffmanTable[] scanAc = new JpegHuffmanTable[4];
    private boolean lumaDone;

    /** Reads an SOS header; returns whether the scan holds the first (luma) component. */
    private boolean readScanHeader() throws DataException {
        int at = pos - 2;
        int len = segmentLength(SOS);
        int p = pos + 2;
        int ns = data[p] & 0xFF;
        if (ns < 1 || ns > 4 || len != 6 + 2 * ns) {
            throw new DataException("scan header at byte " + offset(at) + " with " + ns + " components has length "
                    + len);
        }
        boolean luma = false;
        int blocks = 0;
        for (int i = 0; i < ns; i++) {
            int id = data[p + 1 + 2 * i] & 0xFF;
            int tables = data[p + 2 + 2 * i] & 0xFF;
            int c = -1;
            for (int f = 0; f < Math.min(4, frameComponents); f++) {
                if (componentId[f] == id) {
                    c = f;
                }
            }
            if (c < 0) {
                throw new DataException("scan header at byte " + offset(at) + " names component " + id
                        + ", which the frame does not have");
            }
            int td = tables >> 4;
            int ta = tables & 0x0F;
            if (td > 3 || ta > 3 || !dcTables[td].defined() || !acTables[ta].defined()) {
                throw new DataException("scan at byte " + offset(at) + " uses Huffman tables DC " + td + ", AC "
                        + ta + ", not defined before it");
            }
            scanComponent[i] = c;
            scanDc[i] = dcTables[td];
            scanAc[i] = acTables[ta];
            luma |= c == 0;
            blocks += ns == 1 ? 1 : sampleH[c] * sampleV[c];
        }
        int ss = data[p + 1 + 2 * ns] & 0xFF;
        int se = data[p + 2 + 2 * ns] & 0xFF;
        int ahal = data[p + 3 + 2 * ns] & 0xFF;
        if (ss != 0 || se != 63 || ahal != 0) {
            throw new DataException("sequential scan at byte " + offset(at) + " with spectral selection " + ss
                    + ".." + se + " and approximation " + ahal);
        }
        if (blocks > 10) {
            throw new DataException("scan at byte " + offset(at) + " has " + blocks + " blocks per MCU (at most 10)");
        }
        scanCount = ns;
        pos += len;
        if (luma) {
            if (lumaDone) {
                throw new DataException("second scan of the first component at byte " + offset(at));
            }
            int q = quantIndex[0];
            if (q > 3 || !quantDefined[q]) {
                throw new DataException("quantization table " + q + " of the first component is not defined before "
                        + "its scan at byte " + offset(at));
            }
            System.arraycopy(quant[q], 0, lumaQuant, 0, 80);
        }
        return luma;
    }

    /** Moves {@code pos} past a scan's entropy-coded data (and its restart markers) to the next marker. */
    private void skipScanData() throws DataException {
        int p = pos;
        while (true) {
            while (p < end && data[p] != (byte) 0xFF) {
                p++;
            }
            int q = p + 1;
            while (q < end && data[q] == (byte) 0xFF) {
                q++;
            }
            if (q >= end) {
                throw new DataException("the data end inside a scan at byte " + offset(end));
            }
            int m = data[q] & 0xFF;
            if (m == 0 || (m >= RST0 && m <= RST0 + 7)) {
                p = q + 1;
                continue;
            }
            pos = q - 1;
            return;
        }
    }

    private void decodeScan(FloatBuffer out, int outIndex) throws DataException {
        int w = width;
        int h = height;
        boolean interleaved = scanCount > 1;
        int mcuCols;
        int mcuRows;
        int lumaH;
        int lumaV;
        if (interleaved) {
            mcuCols = ceilDiv(w, 8 * maxH);
            mcuRows = ceilDiv(h, 8 * maxV);
            lumaH = maxH;
            lumaV = maxV;
        } else {
            // a scan of one component: one block per MCU, over that component's own block grid
            mcuCols = ceilDiv(w, 8);
            mcuRows = ceilDiv(h, 8);
            lumaH = 1;
            lumaV = 1;
        }
        int stride = mcuCols * 8 * lumaH;
        int stripeRows = 8 * lumaV;
        if (stripe.length < stride * stripeRows) {
            stripe = new float[stride * stripeRows];
        }
        float[] rows = stripe;
        int[] q = lumaQuant;
        int lumaSlot = 0;
        for (int i = 0; i < scanCount; i++) {
            if (scanComponent[i] == 0) {
                lumaSlot = i;
            }
        }
        JpegHuffmanTable lumaDc = scanDc[lumaSlot];
        JpegHuffmanTable lumaAc = scanAc[lumaSlot];
        buf = 0;
        nbits = 0;
        padBits = 0;
        stopped = false;
        int pred = 0;
        int untilRestart = restartInterval;
        int nextRestart = 0;
        for (int my = 0; my < mcuRows; my++) {
            for (int mx = 0; mx < mcuCols; mx++) {
                if (restartInterval != 0) {
                    if (untilRestart == 0) {
                        restart(nextRestart);
                        nextRestart = (nextRestart + 1) & 7;
                        untilRestart = restartInterval;
                        pred = 0;
                    }
                    untilRestart--;
                }
                for (int i = 0; i < scanCount; i++) {
                    if (i == lumaSlot) {
                        for (int v = 0; v < lumaV; v++) {
                            int rowOffset = v * 8 * stride + mx * lumaH * 8;
                            for (int u = 0; u < lumaH; u++) {
                                pred = lumaBlock(pred, lumaDc, lumaAc, q, rows, rowOffset + 8 * u, stride);
                            }
                        }
                    } else {
                        int c = scanComponent[i];
                        int n = sampleH[c] * sampleV[c];
                        for (int b = 0; b < n; b++) {
                            skipBlock(scanDc[i], scanAc[i]);
                        }
                    }
                }
            }
            checkNotPastData();
            int y0 = my * stripeRows;
            int count = Math.min(stripeRows, h - y0);
            for (int r = 0; r < count; r++) {
                out.put(outIndex + (y0 + r) * w, rows, r * stride, w);
            }
        }
        lumaDone = true;
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    /** Fails when the blocks decoded so far needed more bits than the scan data had. */
    private void checkNotPastData() throws DataException {
        if (nbits < padBits) {
            throw new DataException(stopMarker < 0 ? "the data end at byte " + offset(pos)
                    + " before the image is complete"
                    : "scan data end at marker " + name(stopMarker) + " at byte " + offset(pos)
                    + " before the image is complete");
        }
    }

    /** Ends a restart interval: the marker RSTn must follow the interval's data, with nothing in between. */
    private void restart(int expected) throws DataException {
        checkNotPastData();
        int spare = nbits - padBits;
        if (spare >= 8) {
            throw new DataException((spare / 8) + " extraneous bytes before the restart marker at byte "
                    + offset(pos));
        }
        int marker;
        int at;
        if (stopped) {
            marker = stopMarker;
            at = pos;
        } else {
            // the reader had bits enough and did not look at the bytes after the interval's last one yet
            int q = pos;
            while (q < end && data[q] == (byte) 0xFF) {
                q++;
            }
            if (q == pos || q >= end || data[q] == 0) {
                throw new DataException(q >= end ? "the data end at byte " + offset(end) + " where restart marker RST"
                        + expected + " should be" : "extraneous bytes at byte " + offset(pos) + " where restart "
                        + "marker RST" + expected + " should be");
            }
            marker = data[q] & 0xFF;
            at = q - 1;
        }
        if (marker != RST0 + expected) {
            throw new DataException(marker < 0 ? "the data end at byte " + offset(at) + " where restart marker RST"
                    + expected + " should be" : "restart marker RST" + expected + " expected at byte " + offset(at)
                    + ", found " + name(marker));
        }
        pos = at + 2;
        buf = 0;
        nbits = 0;
        padBits = 0;
        stopped = false;
    }

    // ---------------------------------------------------------------- entropy decoding

    /** Makes at least 33 bits available (zero bits past the end of the scan data, counted in {@link #padBits}). */
    private void refill() {
        if (!stopped) {
            int p = pos;
            if (p + 4 <= end) {
                int v = (int) INT_BE.get(data, p);
                // no 0xFF among the four bytes (the zero-byte test applied to ~v): no stuffing, no marker
                if (((~v - 0x01010101) & v & 0x80808080) == 0) {
                    buf |= (v & 0xFFFFFFFFL) << (32 - nbits);
                    nbits += 32;
                    pos = p + 4;
                    return;
                }
            }
        }
        refillBytewise();
    }

    private void refillBytewise() {
        while (nbits <= 56) {
            if (stopped) {
                nbits += 8;
                padBits += 8;
                continue;
            }
            if (pos >= end) {
                stopped = true;
                stopMarker = -1;
                continue;
            }
            int b = data[pos] & 0xFF;
            if (b == 0xFF) {
                int p = pos + 1;
                while (p < end && data[p] == (byte) 0xFF) {
                    p++; // fill bytes before a marker; before a 00 they are one stuffed 0xFF (as libjpeg reads it)
                }
                if (p >= end) {
                    stopped = true;
                    stopMarker = -1;
                    continue;
                }
                if (data[p] != 0) {
                    stopped = true;
                    stopMarker = data[p] & 0xFF;
                    pos = p - 1;
                    continue;
                }
                pos = p + 1;
            } else {
                pos++;
            }
            buf |= (long) b << (56 - nbits);
            nbits += 8;
        }
    }

    /** The signed value of the top {@code size} (1..15) bits of {@code bits}: a leading 0 bit means negative. */
    private static int value(long bits, int size) {
        int v = (int) (bits >>> (64 - size));
        // positive when the top bit is 1 (bits >> 63 == -1); otherwise subtract 2^size - 1
        return v + (((-1 << size) + 1) & ~(int) (bits >> 63));
    }

    private DataException badCode() {
        return new DataException("bad Huffman code in the scan data before byte " + offset(pos));
    }

    /**
     * Decodes one luma block, dequantizes and transforms it into {@code out}, and returns the new DC predictor.
     * The bit state is kept in locals (fields are written back around the rare refills).
     */
    private int lumaBlock(int pred, JpegHuffmanTable dc, JpegHuffmanTable ac, int[] q, float[] out, int offset,
            int stride) throws DataException {
        int[] c = coef;
        if (nbits < 32) {
            refill();
        }
        long b = buf;
        int n = nbits;
        int idx = (int) (b >>> (64 - FAST_BITS));
        int f = dc.fastValue[idx];
        int diff;
        if (f != 0) {
            int t = f & 0xFF;
            b <<= t;
            n -= t;
            diff = f >> 16;
        } else {
            int e = dc.lookup[idx];
            if (e == 0) {
                e = dc.decodeSlow(b);
                if (e < 0) {
                    throw badCode();
                }
            }
            int len = e >>> 8;
            int s = e & 0xFF;
            b <<= len;
            n -= len;
            diff = s == 0 ? 0 : value(b, s);
            b <<= s;
            n -= s;
        }
        pred += diff;
        c[0] = pred * q[0];
        int[] look = ac.lookup;
        boolean anyAc = false;
        int k = 1;
        while (k < 64) {
            if (n < 32) {
                buf = b;
                nbits = n;
                refill();
                b = buf;
                n = nbits;
            }
            int e = look[(int) (b >>> (64 - FAST_BITS))];
            if (e == 0) {
                e = ac.decodeSlow(b);
                if (e < 0) {
                    buf = b;
                    nbits = n;
                    throw badCode();
                }
            }
            int len = e >>> 8;
            b <<= len;
            int s = e & 15;
            int r = (e >>> 4) & 15;
            if (s == 0) {
                n -= len;
                if (r != 15) {
                    break; // EOB
                }
                k += 16; // ZRL: sixteen zeros
                continue;
            }
            k += r;
            c[ZIGZAG[k]] = value(b, s) * q[k];
            b <<= s;
            n -= len + s;
            k++;
            anyAc = true;
        }
        buf = b;
        nbits = n;
        if (anyAc) {
            JpegIdct.islow(c, work, out, offset, stride);
        } else {
            JpegIdct.flat(c[0], out, offset, stride);
            c[0] = 0;
        }
        return pred;
    }

    /** Reads past one block of a component the gray image does not need: code lengths only, no values. */
    private void skipBlock(JpegHuffmanTable dc, JpegHuffmanTable ac) throws DataException {
        if (nbits < 32) {
            refill();
        }
        long b = buf;
        int n = nbits;
        int idx = (int) (b >>> (64 - FAST_BITS));
        int f = dc.fastValue[idx];
        if (f != 0) {
            int t = f & 0xFF;
            b <<= t;
            n -= t;
        } else {
            int e = dc.lookup[idx];
            if (e == 0) {
                e = dc.decodeSlow(b);
                if (e < 0) {
                    throw badCode();
                }
            }
            int t = (e >>> 8) + (e & 0xFF);
            b <<= t;
            n -= t;
        }
        int[] skip = ac.skip;
        int k = 1;
        while (k < 64) {
            if (n < 32) {
                buf = b;
                nbits = n;
                refill();
                b = buf;
                n = nbits;
            }
            idx = (int) (b >>> (64 - FAST_BITS));
            int e = skip[idx];
            if (e != 0) {
                int t = e & 0xFF;
                b <<= t;
                n -= t;
                k += e >>> 8;
                continue;
            }
            e = ac.decodeSlow(b);
            if (e < 0) {
                buf = b;
                nbits = n;
                throw badCode();
            }
            int s = e & 15;
            int r = (e >>> 4) & 15;
            int t = (e >>> 8) + s;
            b <<= t;
            n -= t;
            if (s == 0) {
                if (r != 15) {
                    break;
                }
                k += 16;
            } else {
                k += r + 1;
            }
        }
        buf = b;
        nbits = n;
    }
}
