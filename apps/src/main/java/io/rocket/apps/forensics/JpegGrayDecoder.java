package io.rocket.apps.forensics;

import java.awt.color.ColorSpace;
import java.awt.image.BufferedImage;
import java.awt.image.ComponentSampleModel;
import java.awt.image.DataBufferByte;
import java.awt.image.Raster;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.ImageTypeSpecifier;

/**
 * The parse step: decodes a JPEG held in a {@link ByteBuffer} and writes it as a {@link PrnuLayout#KIND_GRAY}
 * item, gray = 0.299 R + 0.587 G + 0.114 B in float.
 *
 * <p>Sequential Huffman-coded 8-bit YCbCr JPEGs (nearly every camera photo) are decoded by
 * {@link JpegLumaDecoder}: only the luma component, since the gray value of the encoder's RGB is Y itself (the
 * chroma terms cancel in the BT.601 weights). The result is Y, exactly as libjpeg decodes it, not the gray of RGB
 * rounded to 8 bits and clipped, which differs from it by at most half a level except where RGB clips (saturated
 * colours). Gray JPEGs (faster in ImageIO's native decoder, see {@link #lumaForGray}) and everything the luma
 * decoder does not handle (progressive, arithmetic-coded or 12-bit JPEGs, RGB or CMYK encodings) go to ImageIO
 * as before:
 *
 * <p>Channel order is taken from the decoded raster's band offsets, never assumed: ImageIO returns colour JPEGs
 * as {@code TYPE_3BYTE_BGR}, whose bytes run B, G, R, so reading them as R, G, B would weight the wrong channels.
 * Gray JPEGs are copied as they are; other layouts go through {@link BufferedImage#getRGB}. The JDK decoder
 * reports a truncated or damaged stream only as a warning and fills in the rest with gray, so every warning is
 * turned into a {@link PhotoFormatException}; the luma decoder fails on the same problems. The image size is
 * checked from the header before decoding, against the expected size and the output buffer.
 *
 * <p>One decoder per thread (not thread-safe): it keeps its buffers (and, once needed, its ImageIO reader and the
 * last destination image), so decoding a stream of same-sized photos allocates nothing per photo.
 */
public final class JpegGrayDecoder implements AutoCloseable {

    private final JpegLumaDecoder luma = new JpegLumaDecoder();
    /** A copy of the file when it is not in a heap buffer (the luma decoder reads a byte array). */
    private byte[] copy = new byte[0];
    private ImageReader reader;
    private final List<String> warnings = new ArrayList<>();
    private BufferedImage destination;
    private ImageTypeSpecifier destinationType;

    /**
     * Whether one-component (gray) JPEGs go to the luma decoder too. They normally go to ImageIO: for them its
     * native libjpeg is faster than the luma decoder (1.4x against 2.0x libjpeg-turbo's time in the measurement
     * of docs/benchmarks.md, "JPEG decode (issue 43)"; no colour conversion to save there) and gives the same
     * samples.
     */
    private final boolean lumaForGray;
    /** libjpeg-turbo, where the system has it; null to decode in Java (and ImageIO) only. */
    private final TurboJpegGray turbo;

    /**
     * A decoder: libjpeg-turbo where the system has its TurboJPEG library, else the luma decoder and ImageIO; its
     * ImageIO JPEG reader is only created for a photo that needs it.
     */
    public JpegGrayDecoder() {
        this(false, TurboJpegGray.available());
    }

    /**
     * A decoder of the Java paths only, that also takes gray JPEGs through the luma decoder when {@code lumaForGray}
     * (tests and the decode benchmark).
     */
    JpegGrayDecoder(boolean lumaForGray) {
        this(lumaForGray, false);
    }

    /** A decoder with libjpeg-turbo when {@code native} (and the system has it), else the Java paths. */
    JpegGrayDecoder(boolean lumaForGray, boolean nativeTurbo) {
        this.lumaForGray = lumaForGray;
        this.turbo = nativeTurbo && TurboJpegGray.available() ? new TurboJpegGray() : null;
    }

    private ImageReader reader() {
        if (reader == null) {
            Iterator<ImageReader> readers = ImageIO.getImageReadersByFormatName("jpeg");
            if (!readers.hasNext()) {
                throw new IllegalStateException("no ImageIO JPEG reader in this JVM");
            }
            reader = readers.next();
            reader.addIIOReadWarningListener(this::warningOccurred);
        }
        return reader;
    }

    /** Width and height of a JPEG, from its header only. */
    public int[] dimensions(String label, ByteBuffer fileBytes) throws PhotoFormatException {
        checkSignature(label, fileBytes);
        try {
            readFrame(fileBytes);
        } catch (JpegLumaDecoder.DataException e) {
            throw failure(label, fileBytes, e.getMessage(), e);
        } finally {
            luma.release();
        }
        if (luma.height() > 0) {
            return new int[] {luma.width(), luma.height()};
        }
        // the height comes later, in a DNL marker after the first scan: leave that to ImageIO
        ImageReader imageReader = reader();
        try (ByteBufferImageInputStream in = new ByteBufferImageInputStream(fileBytes)) {
            imageReader.setInput(in, true, true);
            return new int[] {imageReader.getWidth(0), imageReader.getHeight(0)};
        } catch (IOException e) {
            throw classify(label, fileBytes, e);
        } finally {
            imageReader.setInput(null); // drop the stream, keep the reader (and its listener) for the next photo
        }
    }

    /** Hands the file's bytes to the luma decoder (copied only when not on the heap) and reads to the frame. */
    private int readFrame(ByteBuffer fileBytes) throws JpegLumaDecoder.DataException {
        int n = fileBytes.remaining();
        if (fileBytes.hasArray()) {
            int from = fileBytes.arrayOffset() + fileBytes.position();
            return luma.readFrame(fileBytes.array(), from, from + n);
        }
        if (copy.length < n) {
            copy = null; // let the old copy go before allocating the new one
            copy = new byte[n];
        }
        fileBytes.get(fileBytes.position(), copy, 0, n);
        return luma.readFrame(copy, 0, n);
    }

    /**
     * Decodes {@code fileBytes} (from its position to its limit) into a GRAY item at {@code out.position()}.
     * Positions are not moved.
     *
     * @param expectedWidth  the required width, or 0 to accept any
     * @param expectedHeight the required height, or 0 to accept any
     * @return the bytes written
     * @throws PhotoFormatException    for a photo that is not a usable JPEG of the expected size
     * @throws BufferTooSmallException when the gray image does not fit in {@code out}
     */
    public long decode(String label, ByteBuffer fileBytes, ByteBuffer out, int expectedWidth, int expectedHeight)
            throws PhotoFormatException {
        checkSignature(label, fileBytes);
        try {
            int frame = readFrame(fileBytes);
            if (turbo != null && frame == JpegLumaDecoder.FAST && luma.components() > 1 && luma.height() > 0
                    && endsWithEoi(fileBytes)) {
                // A sequential colour photo: libjpeg-turbo's gray is its Y, the luma decoder's values, in half its
                // time. Gray photos stay with ImageIO's native libjpeg (as fast, with no copy of the samples),
                // progressive colour with ImageIO's gray from RGB, and a truncated file (no EOI) goes to the Java
                // paths, whose error names the problem.
                int w = luma.width();
                int h = luma.height();
                long need = checkSize(label, out, w, h, expectedWidth, expectedHeight);
                int base = out.position();
                ByteBuffer pixels = out.duplicate().order(out.order());
                pixels.position(base + PrnuLayout.HEADER_BYTES);
                if (turbo.decode(fileBytes, w, h, pixels.asFloatBuffer())) {
                    PrnuLayout.writeHeader(out, base, PrnuLayout.KIND_GRAY, h, w);
                    return need;
                }
            }
            if (frame != JpegLumaDecoder.FAST || (luma.components() == 1 && !lumaForGray)) {
                return decodeWithImageIO(label, fileBytes, out, expectedWidth, expectedHeight);
            }
            int w = luma.width();
            int h = luma.height();
            long need = checkSize(label, out, w, h, expectedWidth, expectedHeight);
            int base = out.position();
            ByteBuffer pixels = out.duplicate().order(out.order());
            pixels.position(base + PrnuLayout.HEADER_BYTES);
            if (!luma.decode(pixels.asFloatBuffer(), 0)) {
                return decodeWithImageIO(label, fileBytes, out, expectedWidth, expectedHeight);
            }
            PrnuLayout.writeHeader(out, base, PrnuLayout.KIND_GRAY, h, w);
            return need;
        } catch (JpegLumaDecoder.DataException e) {
            throw failure(label, fileBytes, e.getMessage(), e);
        } finally {
            luma.release();
        }
    }

    /** Checks the header's size against the collection's and the output buffer; returns the bytes needed. */
    private static long checkSize(String label, ByteBuffer out, int w, int h, int expectedWidth, int expectedHeight)
            throws PhotoFormatException {
        if ((expectedWidth > 0 && w != expectedWidth) || (expectedHeight > 0 && h != expectedHeight)) {
            throw new PhotoFormatException(label, PhotoFormatException.Reason.WRONG_SIZE, "image is " + w + "x"
                    + h + " but the collection's photos are " + expectedWidth + "x" + expectedHeight);
        }
        long need = PrnuLayout.grayBytes(h, w);
        if (need > out.remaining()) {
            throw new BufferTooSmallException(label + ": gray image " + w + "x" + h, need, out.remaining());
        }
        return need;
    }

    /**
     * The JPEGs the luma decoder leaves alone, through ImageIO and the gray of its RGB (or gray) raster: the only
     * decoder before the luma one, which tests and the decode benchmark compare with.
     */
    long decodeWithImageIO(String label, ByteBuffer fileBytes, ByteBuffer out, int expectedWidth,
            int expectedHeight) throws PhotoFormatException {
        ImageReader imageReader = reader();
        warnings.clear();
        try (ByteBufferImageInputStream in = new ByteBufferImageInputStream(fileBytes)) {
            imageReader.setInput(in, true, true);
            int w = imageReader.getWidth(0);
            int h = imageReader.getHeight(0);
            long need = checkSize(label, out, w, h, expectedWidth, expectedHeight);
            BufferedImage image = imageReader.read(0, readParam(label, w, h));
            if (!warnings.isEmpty()) {
                throw failure(label, fileBytes, warnings.get(0), null);
            }
            int base = out.position();
            PrnuLayout.writeHeader(out, base, PrnuLayout.KIND_GRAY, h, w);
            writeGray(image, out, base + PrnuLayout.HEADER_BYTES);
            return need;
        } catch (PhotoFormatException | BufferTooSmallException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            // the JDK decoder throws IIOException for bad data, and occasionally runtime exceptions for very bad data
            throw classify(label, fileBytes, e);
        } finally {
            imageReader.setInput(null); // drop the stream, keep the reader (and its listener) for the next photo
        }
    }

    private void warningOccurred(ImageReader source, String warning) {
        warnings.add(warning);
    }

    /** Reuses the last destination image when the reader would create one of the same type and size. */
    private ImageReadParam readParam(String label, int w, int h) throws IOException {
        Iterator<ImageTypeSpecifier> types = reader().getImageTypes(0);
        if (types == null || !types.hasNext()) {
            throw new PhotoFormatException(label, PhotoFormatException.Reason.UNSUPPORTED,
                    "JPEG colour encoding not supported by the decoder");
        }
        ImageTypeSpecifier type = types.next();
        if (destination == null || destination.getWidth() != w || destination.getHeight() != h
                || !type.equals(destinationType)) {
            destination = null; // let the old raster go before allocating the new one
            destination = type.createBufferedImage(w, h);
            destinationType = type;
        }
        ImageReadParam param = reader().getDefaultReadParam();
        param.setDestination(destination);
        return param;
    }

    private static void writeGray(BufferedImage image, ByteBuffer out, int offset) {
        int w = image.getWidth();
        int h = image.getHeight();
        Raster raster = image.getRaster();
        ColorSpace space = image.getColorModel().getColorSpace();
        if (raster.getDataBuffer() instanceof DataBufferByte && raster.getSampleModel() instanceof ComponentSampleModel
                && raster.getSampleModelTranslateX() == 0 && raster.getSampleModelTranslateY() == 0) {
            ComponentSampleModel sm = (ComponentSampleModel) raster.getSampleModel();
            byte[] data = ((DataBufferByte) raster.getDataBuffer()).getData();
            int[] bandOffsets = sm.getBandOffsets();
            int[] banks = sm.getBankIndices();
            boolean oneBank = banks.length == 1 || (banks[0] == 0 && banks[1] == 0 && banks[2] == 0);
            int pixelStride = sm.getPixelStride();
            int rowStride = sm.getScanlineStride();
            if (raster.getNumBands() == 1 && space.getType() == ColorSpace.TYPE_GRAY) {
                for (int r = 0; r < h; r++) {
                    int in = r * rowStride + bandOffsets[0];
                    int o = offset + 4 * r * w;
                    for (int c = 0; c < w; c++, in += pixelStride, o += 4) {
                        out.putFloat(o, data[in] & 0xff);
                    }
                }
                return;
            }
            if (raster.getNumBands() >= 3 && space.getType() == ColorSpace.TYPE_RGB && oneBank) {
                // band 0 is R, 1 is G, 2 is B whatever their order in memory (TYPE_3BYTE_BGR stores B first)
                int offR = bandOffsets[0];
                int offG = bandOffsets[1];
                int offB = bandOffsets[2];
                for (int r = 0; r < h; r++) {
                    int in = r * rowStride;
                    int o = offset + 4 * r * w;
                    for (int c = 0; c < w; c++, in += pixelStride, o += 4) {
                        out.putFloat(o, gray(data[in + offR] & 0xff, data[in + offG] & 0xff, data[in + offB] & 0xff));
                    }
                }
                return;
            }
        }
        int[] row = new int[w];
        for (int r = 0; r < h; r++) {
            image.getRGB(0, r, w, 1, row, 0, w);
            int o = offset + 4 * r * w;
            for (int c = 0; c < w; c++, o += 4) {
                int p = row[c];
                out.putFloat(o, gray((p >> 16) & 0xff, (p >> 8) & 0xff, p & 0xff));
            }
        }
    }

    /** The luma weights of ITU-R BT.601. */
    static float gray(int red, int green, int blue) {
        return (float) (0.299 * red + 0.587 * green + 0.114 * blue);
    }

    private static void checkSignature(String label, ByteBuffer bytes) throws PhotoFormatException {
        int p = bytes.position();
        if (bytes.remaining() < 3 || (bytes.get(p) & 0xff) != 0xFF || (bytes.get(p + 1) & 0xff) != 0xD8
                || (bytes.get(p + 2) & 0xff) != 0xFF) {
            throw new PhotoFormatException(label, PhotoFormatException.Reason.NOT_JPEG,
                    "not a JPEG (no SOI marker; " + bytes.remaining() + " bytes)");
        }
    }

    /** Turns a decoder exception into a per-file error with the most likely reason. */
    private static PhotoFormatException classify(String label, ByteBuffer bytes, Exception e) {
        String msg = String.valueOf(e.getMessage());
        String lower = msg.toLowerCase();
        if (lower.contains("unsupported") || lower.contains("not supported")) {
            return new PhotoFormatException(label, PhotoFormatException.Reason.UNSUPPORTED,
                    "JPEG encoding not supported (" + msg + ")", e);
        }
        return failure(label, bytes, msg, e);
    }

    /**
     * A truncated or corrupt JPEG. The decoder's messages vary ("Premature end of JPEG file", "Missing EOI
     * marker", "No image data present", "missing SOS marker"), so the file itself decides: a JPEG that does not
     * end with an EOI marker (ignoring zero padding) was cut short; one that does is corrupt.
     */
    private static PhotoFormatException failure(String label, ByteBuffer bytes, String detail, Exception cause) {
        boolean truncated = !endsWithEoi(bytes) || cause instanceof java.io.EOFException;
        return new PhotoFormatException(label, truncated ? PhotoFormatException.Reason.TRUNCATED
                : PhotoFormatException.Reason.CORRUPT, (truncated ? "truncated JPEG" : "corrupt JPEG") + " ("
                + detail + ")", cause);
    }

    /** Whether the last non-zero bytes are the EOI marker FF D9. */
    static boolean endsWithEoi(ByteBuffer bytes) {
        int start = bytes.position();
        int end = bytes.limit();
        while (end > start && bytes.get(end - 1) == 0) {
            end--;
        }
        return end - start >= 4 && (bytes.get(end - 2) & 0xff) == 0xFF && (bytes.get(end - 1) & 0xff) == 0xD9;
    }

    @Override
    public void close() {
        if (turbo != null) {
            turbo.close();
        }
        if (reader != null) {
            reader.dispose();
            reader = null;
        }
        destination = null;
        copy = new byte[0];
    }
}
