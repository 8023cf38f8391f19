package io.rocket.apps.forensics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageTypeSpecifier;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.metadata.IIOMetadata;
import javax.imageio.metadata.IIOMetadataNode;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.w3c.dom.NodeList;

/**
 * The luma decoder inside {@link JpegGrayDecoder} against the ImageIO path it replaced: gray JPEGs must give the
 * very same floats (both are libjpeg's islow IDCT), colour JPEGs the gray of ImageIO's RGB within rounding, at
 * sizes that are not multiples of the block or MCU size, with 4:2:0, 4:2:2 and 4:4:4 sampling and with restart
 * markers; progressive JPEGs still decode through ImageIO; damaged restart markers fail as corrupt.
 */
class JpegLumaDecoderTest {

    private static final String METADATA = "javax_imageio_jpeg_image_1.0";

    /** Takes gray JPEGs through the luma decoder too, so that they test it. */
    private final JpegGrayDecoder decoder = new JpegGrayDecoder(true);

    @AfterEach
    void close() {
        decoder.close();
    }

    /** Options of the ImageIO encoder. */
    private record Encoding(int quality, int lumaH, int lumaV, int restartInterval, boolean progressive) {
        static Encoding plain(int quality) {
            return new Encoding(quality, 0, 0, 0, false);
        }
    }

    private static byte[] encode(BufferedImage image, Encoding e) throws IOException {
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
            ImageWriteParam param = writer.getDefaultWriteParam();
            if (e.progressive()) {
                param.setProgressiveMode(ImageWriteParam.MODE_DEFAULT);
            } else {
                param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
                param.setCompressionQuality(e.quality() / 100f);
            }
            IIOMetadata metadata = writer.getDefaultImageMetadata(new ImageTypeSpecifier(image), param);
            if (e.lumaH() > 0 || e.restartInterval() > 0) {
                IIOMetadataNode root = (IIOMetadataNode) metadata.getAsTree(METADATA);
                IIOMetadataNode sequence = (IIOMetadataNode) root.getElementsByTagName("markerSequence").item(0);
                if (e.lumaH() > 0) {
                    NodeList components = root.getElementsByTagName("componentSpec");
                    // component 0 is Y; the chroma components stay 1x1, so Y's factors set the subsampling
                    IIOMetadataNode y = (IIOMetadataNode) components.item(0);
                    y.setAttribute("HsamplingFactor", Integer.toString(e.lumaH()));
                    y.setAttribute("VsamplingFactor", Integer.toString(e.lumaV()));
                }
                if (e.restartInterval() > 0) {
                    IIOMetadataNode dri = new IIOMetadataNode("dri");
                    dri.setAttribute("interval", Integer.toString(e.restartInterval()));
                    sequence.insertBefore(dri, sequence.getFirstChild());
                }
                metadata.setFromTree(METADATA, root);
            }
            writer.setOutput(out);
            writer.write(null, new IIOImage(image, null, metadata), param);
        } finally {
            writer.dispose();
        }
        return bytes.toByteArray();
    }

    /** A textured gray image: smooth gradients plus noise, so that every block has AC terms. */
    private static BufferedImage grayTexture(int w, int h, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        BufferedImage image = new BufferedImage(w, h, BufferedImage.TYPE_BYTE_GRAY);
        for (int r = 0; r < h; r++) {
            for (int c = 0; c < w; c++) {
                int v = 30 + (c * 150) / Math.max(1, w - 1) + (r * 40) / Math.max(1, h - 1) + random.nextInt(-25, 26);
                image.getRaster().setSample(c, r, 0, Math.max(0, Math.min(255, v)));
            }
        }
        return image;
    }

    /** A colour image in mid-range colours (no channel near 0 or 255, so RGB does not clip). */
    private static BufferedImage colourTexture(int w, int h, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        BufferedImage image = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        for (int r = 0; r < h; r++) {
            for (int c = 0; c < w; c++) {
                int red = 60 + (c * 120) / Math.max(1, w - 1) + random.nextInt(-15, 16);
                int green = 80 + (r * 100) / Math.max(1, h - 1) + random.nextInt(-15, 16);
                int blue = 120 + random.nextInt(-30, 31);
                image.setRGB(c, r, (red << 16) | (green << 8) | blue);
            }
        }
        return image;
    }

    private static ByteBuffer direct(byte[] bytes) {
        ByteBuffer b = ByteBuffer.allocateDirect(bytes.length);
        b.put(bytes).flip();
        return b;
    }

    private static ByteBuffer out(int w, int h) {
        return ByteBuffer.allocateDirect((int) PrnuLayout.grayBytes(h, w)).order(ByteOrder.LITTLE_ENDIAN);
    }

    private float[] decodeLuma(byte[] jpeg, int w, int h) throws PhotoFormatException {
        ByteBuffer out = out(w, h);
        assertThat(decoder.decode("t.jpg", direct(jpeg), out, w, h)).isEqualTo(PrnuLayout.grayBytes(h, w));
        assertThat(PrnuLayout.height(out, 0)).isEqualTo(h);
        assertThat(PrnuLayout.width(out, 0)).isEqualTo(w);
        return Reference.data(out, w * h);
    }

    private float[] decodeImageIo(byte[] jpeg, int w, int h) throws PhotoFormatException {
        ByteBuffer out = out(w, h);
        decoder.decodeWithImageIO("t.jpg", direct(jpeg), out, w, h);
        return Reference.data(out, w * h);
    }

    private static float maxDifference(float[] a, float[] b) {
        float max = 0;
        for (int i = 0; i < a.length; i++) {
            max = Math.max(max, Math.abs(a[i] - b[i]));
        }
        return max;
    }

    @Test
    void grayJpegs_oddSizes_sameFloatsAsImageIo() throws Exception {
        int[][] sizes = {{1, 1}, {7, 9}, {8, 8}, {17, 33}, {100, 75}, {129, 64}};
        for (int[] size : sizes) {
            for (int quality : new int[] {50, 85, 100}) {
                byte[] jpeg = encode(grayTexture(size[0], size[1], size[0] * 31L + quality), Encoding.plain(quality));
                assertThat(decodeLuma(jpeg, size[0], size[1]))
                        .as("%dx%d at quality %d", size[0], size[1], quality)
                        .containsExactly(decodeImageIo(jpeg, size[0], size[1]));
            }
        }
    }

    @Test
    void colourJpegs_420_422_444_oddSizes_grayOfImageIoWithinRounding() throws Exception {
        int[][] sampling = {{2, 2}, {2, 1}, {1, 1}};
        int[][] sizes = {{5, 3}, {23, 17}, {64, 48}, {97, 70}};
        for (int[] hv : sampling) {
            for (int[] size : sizes) {
                byte[] jpeg = encode(colourTexture(size[0], size[1], size[0] + 7L * hv[0] + hv[1]),
                        new Encoding(90, hv[0], hv[1], 0, false));
                int sof = markerAt(jpeg, 0xC0);
                assertThat(jpeg[sof + 11] & 0xFF).as("Y's sampling factors").isEqualTo((hv[0] << 4) | hv[1]);
                float[] luma = decodeLuma(jpeg, size[0], size[1]);
                // Y against the weighted gray of ImageIO's RGB, which was rounded to 8 bits per channel
                assertThat(maxDifference(luma, decodeImageIo(jpeg, size[0], size[1])))
                        .as("%dx%d sampled %dx%d", size[0], size[1], hv[0], hv[1]).isLessThanOrEqualTo(0.5f);
                for (float v : luma) {
                    assertThat(v).isEqualTo((float) Math.round(v)); // Y is an 8-bit sample
                }
            }
        }
    }

    @Test
    void restartMarkers_grayAndColour_sameAsWithout() throws Exception {
        BufferedImage gray = grayTexture(75, 50, 3);
        for (int interval : new int[] {1, 3, 7}) {
            byte[] with = encode(gray, new Encoding(85, 0, 0, interval, false));
            assertThat(containsRestartMarker(with)).isTrue();
            assertThat(decodeLuma(with, 75, 50)).containsExactly(decodeImageIo(with, 75, 50));
        }
        BufferedImage colour = colourTexture(75, 50, 4);
        byte[] plain = encode(colour, new Encoding(85, 2, 2, 0, false));
        byte[] restarts = encode(colour, new Encoding(85, 2, 2, 2, false));
        assertThat(containsRestartMarker(restarts)).isTrue();
        // the same coefficients, coded in intervals: the same samples
        assertThat(decodeLuma(restarts, 75, 50)).containsExactly(decodeLuma(plain, 75, 50));
    }

    private static boolean containsRestartMarker(byte[] jpeg) {
        return restartMarkerAt(jpeg, 0) >= 0;
    }

    /** The index of the first RSTn marker at or after {@code from}, or -1. */
    private static int restartMarkerAt(byte[] jpeg, int from) {
        for (int i = from; i + 1 < jpeg.length; i++) {
            if (jpeg[i] == (byte) 0xFF && (jpeg[i + 1] & 0xF8) == 0xD0) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void restartMarker_wrongNumber_failsAsCorrupt() throws Exception {
        byte[] jpeg = encode(grayTexture(64, 64, 5), new Encoding(85, 0, 0, 4, false));
        int at = restartMarkerAt(jpeg, 0);
        jpeg[at + 1] = (byte) 0xD5; // RST5 where RST0 belongs
        assertThatThrownBy(() -> decoder.decode("rst.jpg", direct(jpeg), out(64, 64), 64, 64))
                .isInstanceOf(PhotoFormatException.class)
                .hasMessageStartingWith("rst.jpg: corrupt JPEG (restart marker RST0 expected at byte " + at
                        + ", found 0xFFD5")
                .extracting(e -> ((PhotoFormatException) e).reason()).isEqualTo(PhotoFormatException.Reason.CORRUPT);
    }

    @Test
    void restartMarker_missing_failsAsCorrupt() throws Exception {
        byte[] jpeg = encode(grayTexture(64, 64, 6), new Encoding(85, 0, 0, 4, false));
        int at = restartMarkerAt(jpeg, 0);
        // drop the first RST0 marker: the next interval's data follow the previous one's directly
        byte[] cut = new byte[jpeg.length - 2];
        System.arraycopy(jpeg, 0, cut, 0, at);
        System.arraycopy(jpeg, at + 2, cut, at, jpeg.length - at - 2);
        assertThatThrownBy(() -> decoder.decode("norst.jpg", direct(cut), out(64, 64), 64, 64))
                .isInstanceOf(PhotoFormatException.class).hasMessageStartingWith("norst.jpg: corrupt JPEG (")
                .hasMessageContaining("restart marker");
    }

    @Test
    void truncatedColourJpeg_failsAsTruncatedNamingWhere() throws Exception {
        byte[] jpeg = encode(colourTexture(200, 120, 7), Encoding.plain(90));
        byte[] cut = Arrays.copyOf(jpeg, jpeg.length * 2 / 3);
        assertThatThrownBy(() -> decoder.decode("cut.jpg", direct(cut), out(200, 120), 200, 120))
                .isInstanceOf(PhotoFormatException.class)
                .hasMessageStartingWith("cut.jpg: truncated JPEG (the data end at byte " + cut.length
                        + " before the image is complete)")
                .extracting(e -> ((PhotoFormatException) e).reason())
                .isEqualTo(PhotoFormatException.Reason.TRUNCATED);
    }

    @Test
    void progressiveJpeg_stillDecodedThroughImageIo() throws Exception {
        byte[] gray = encode(grayTexture(90, 60, 8), new Encoding(0, 0, 0, 0, true));
        assertThat(markerAt(gray, 0xC2)).as("an SOF2 (progressive) frame").isPositive();
        float[] luma = decodeLuma(gray, 90, 60);
        assertThat(luma).containsExactly(decodeImageIo(gray, 90, 60));
        byte[] colour = encode(colourTexture(90, 60, 9), new Encoding(0, 0, 0, 0, true));
        assertThat(decodeLuma(colour, 90, 60)).containsExactly(decodeImageIo(colour, 90, 60));
    }

    @Test
    void defaultDecoder_grayJpegThroughImageIo_sameFloats() throws Exception {
        byte[] jpeg = encode(grayTexture(33, 21, 12), Encoding.plain(85));
        ByteBuffer out = out(33, 21);
        try (JpegGrayDecoder plain = new JpegGrayDecoder()) {
            plain.decode("g.jpg", direct(jpeg), out, 33, 21);
        }
        assertThat(Reference.data(out, 33 * 21)).containsExactly(decodeLuma(jpeg, 33, 21));
    }

    @Test
    void heapBufferAtAnOffset_readInPlace() throws Exception {
        byte[] jpeg = encode(grayTexture(40, 24, 10), Encoding.plain(85));
        byte[] padded = new byte[jpeg.length + 13];
        System.arraycopy(jpeg, 0, padded, 7, jpeg.length);
        ByteBuffer heap = ByteBuffer.wrap(padded, 7, jpeg.length).slice();
        ByteBuffer out = out(40, 24);
        decoder.decode("heap.jpg", heap, out, 40, 24);
        assertThat(Reference.data(out, 40 * 24)).containsExactly(decodeImageIo(jpeg, 40, 24));
        assertThat(decoder.dimensions("heap.jpg", heap)).containsExactly(40, 24);
    }

    @Test
    void badHuffmanCode_failsAsCorrupt() throws Exception {
        byte[] jpeg = encode(grayTexture(128, 128, 11), Encoding.plain(85));
        int sos = sosDataStart(jpeg);
        // sixteen 1-bits cannot start any code of a JPEG table (the all-ones code is not allowed)
        jpeg[sos + 40] = (byte) 0xFF;
        jpeg[sos + 41] = 0x00;
        jpeg[sos + 42] = (byte) 0xFF;
        jpeg[sos + 43] = 0x00;
        jpeg[sos + 44] = (byte) 0xFF;
        jpeg[sos + 45] = 0x00;
        assertThatThrownBy(() -> decoder.decode("huff.jpg", direct(jpeg), out(128, 128), 128, 128))
                .isInstanceOf(PhotoFormatException.class).hasMessageStartingWith("huff.jpg: corrupt JPEG (");
    }

    /** The index of the first 0xFF {@code marker} pair, or -1. */
    private static int markerAt(byte[] jpeg, int marker) {
        for (int i = 2; i + 1 < jpeg.length; i++) {
            if (jpeg[i] == (byte) 0xFF && (jpeg[i + 1] & 0xFF) == marker) {
                return i;
            }
        }
        return -1;
    }

    /** The first byte of entropy-coded data (after the SOS segment). */
    private static int sosDataStart(byte[] jpeg) {
        for (int i = 2; i + 3 < jpeg.length; i++) {
            if (jpeg[i] == (byte) 0xFF && jpeg[i + 1] == (byte) 0xDA) {
                return i + 2 + (((jpeg[i + 2] & 0xFF) << 8) | (jpeg[i + 3] & 0xFF));
            }
        }
        throw new AssertionError("no SOS");
    }

    @Test
    void huffmanTable_overfullLengths_rejected() {
        JpegHuffmanTable table = new JpegHuffmanTable();
        int[] counts = new int[16];
        counts[0] = 2; // two 1-bit codes: 0 and 1, and 1 is the all-ones code
        assertThat(table.define(counts, new int[] {0, 1}, true)).contains("overflow");
        counts[0] = 1;
        counts[1] = 1;
        assertThat(table.define(counts, new int[] {0, 1}, true)).isNull();
        assertThat(table.define(counts, new int[] {0, 16}, true)).contains("symbol 16");
    }

    @Test
    void extend_signsValues() {
        assertThat(JpegHuffmanTable.extend(0, 1)).isEqualTo(-1);
        assertThat(JpegHuffmanTable.extend(1, 1)).isEqualTo(1);
        assertThat(JpegHuffmanTable.extend(0, 3)).isEqualTo(-7);
        assertThat(JpegHuffmanTable.extend(3, 3)).isEqualTo(-4);
        assertThat(JpegHuffmanTable.extend(4, 3)).isEqualTo(4);
        assertThat(JpegHuffmanTable.extend(0, 0)).isZero();
    }
}
