package io.rocket.apps.forensics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class JpegGrayDecoderTest {

    private final JpegGrayDecoder decoder = new JpegGrayDecoder();

    @AfterEach
    void close() {
        decoder.close();
    }

    static byte[] encode(BufferedImage image, int quality) throws IOException {
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
            ImageWriteParam param = writer.getDefaultWriteParam();
            param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            param.setCompressionQuality(quality / 100f);
            writer.setOutput(out);
            writer.write(null, new IIOImage(image, null, null), param);
        } finally {
            writer.dispose();
        }
        return bytes.toByteArray();
    }

    static BufferedImage grayRamp(int w, int h) {
        BufferedImage image = new BufferedImage(w, h, BufferedImage.TYPE_BYTE_GRAY);
        for (int r = 0; r < h; r++) {
            for (int c = 0; c < w; c++) {
                image.getRaster().setSample(c, r, 0, (c * 255) / (w - 1));
            }
        }
        return image;
    }

    private static ByteBuffer direct(byte[] bytes) {
        ByteBuffer b = ByteBuffer.allocateDirect(bytes.length + 10);
        b.position(10); // a non-zero position, as in a shared slot
        b.put(bytes).flip().position(10);
        return b;
    }

    private static ByteBuffer out(long bytes) {
        return ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void decode_grayJpeg_writesHeaderAndPixels() throws Exception {
        int w = 64;
        int h = 40;
        byte[] jpeg = encode(grayRamp(w, h), 100);
        ByteBuffer out = out(PrnuLayout.grayBytes(h, w));
        long written = decoder.decode("ramp.jpg", direct(jpeg), out, w, h);
        assertThat(written).isEqualTo(PrnuLayout.grayBytes(h, w));
        assertThat(PrnuLayout.kind(out, 0)).isEqualTo(PrnuLayout.KIND_GRAY);
        assertThat(PrnuLayout.height(out, 0)).isEqualTo(h);
        assertThat(PrnuLayout.width(out, 0)).isEqualTo(w);
        float[] gray = Reference.data(out, h * w);
        for (int r = 0; r < h; r++) {
            for (int c = 0; c < w; c++) {
                assertThat(gray[r * w + c]).isCloseTo((c * 255f) / (w - 1), within(3f));
            }
        }
    }

    @Test
    void decode_colourJpeg_weightsTheRightChannels() throws Exception {
        // three flat 32-px blocks of pure red, green and blue; a BGR/RGB mix-up would swap 76 and 29
        BufferedImage image = new BufferedImage(96, 32, BufferedImage.TYPE_INT_RGB);
        int[] colours = {0xFF0000, 0x00FF00, 0x0000FF};
        for (int r = 0; r < 32; r++) {
            for (int c = 0; c < 96; c++) {
                image.setRGB(c, r, colours[c / 32]);
            }
        }
        ByteBuffer out = out(PrnuLayout.grayBytes(32, 96));
        decoder.decode("rgb.jpg", direct(encode(image, 100)), out, 96, 32);
        float[] gray = Reference.data(out, 32 * 96);
        assertThat(gray[16 * 96 + 16]).isCloseTo(0.299f * 255, within(3f));
        assertThat(gray[16 * 96 + 48]).isCloseTo(0.587f * 255, within(3f));
        assertThat(gray[16 * 96 + 80]).isCloseTo(0.114f * 255, within(3f));
    }

    @Test
    void decode_sameDecoderTwice_reusesAndStaysCorrect() throws Exception {
        byte[] a = encode(grayRamp(32, 16), 95);
        BufferedImage flat = new BufferedImage(32, 16, BufferedImage.TYPE_BYTE_GRAY);
        for (int r = 0; r < 16; r++) {
            for (int c = 0; c < 32; c++) {
                flat.getRaster().setSample(c, r, 0, 200);
            }
        }
        byte[] b = encode(flat, 95);
        ByteBuffer out = out(PrnuLayout.grayBytes(16, 32));
        decoder.decode("a.jpg", direct(a), out, 32, 16);
        decoder.decode("b.jpg", direct(b), out, 32, 16);
        for (float v : Reference.data(out, 16 * 32)) {
            assertThat(v).isCloseTo(200f, within(1.5f));
        }
    }

    @Test
    void decode_notJpeg_failsWithNotJpeg() {
        ByteBuffer png = direct(new byte[] {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10});
        assertThatThrownBy(() -> decoder.decode("photo1.png", png, out(1000), 0, 0))
                .isInstanceOf(PhotoFormatException.class).hasMessageStartingWith("photo1.png: not a JPEG")
                .extracting(e -> ((PhotoFormatException) e).reason()).isEqualTo(PhotoFormatException.Reason.NOT_JPEG);
    }

    @Test
    void decode_truncatedJpeg_failsWithTruncated() throws Exception {
        byte[] jpeg = encode(grayRamp(256, 256), 90);
        byte[] cut = Arrays.copyOf(jpeg, jpeg.length / 2);
        assertThatThrownBy(() -> decoder.decode("photo3.jpg", direct(cut), out(PrnuLayout.grayBytes(256, 256)), 256,
                256)).isInstanceOf(PhotoFormatException.class).hasMessageStartingWith("photo3.jpg: truncated JPEG")
                .extracting(e -> ((PhotoFormatException) e).reason())
                .isEqualTo(PhotoFormatException.Reason.TRUNCATED);
    }

    @Test
    void decode_headerOnly_failsWithTruncated() throws Exception {
        byte[] jpeg = encode(grayRamp(64, 64), 90);
        byte[] cut = Arrays.copyOf(jpeg, 40); // ends inside the quantisation table, before the frame header
        assertThatThrownBy(() -> decoder.decode("photo4.jpg", direct(cut), out(PrnuLayout.grayBytes(64, 64)), 0, 0))
                .isInstanceOf(PhotoFormatException.class).hasMessageStartingWith("photo4.jpg: truncated JPEG");
    }

    @Test
    void decode_damagedScanWithEoi_failsWithCorrupt() throws Exception {
        byte[] jpeg = encode(grayRamp(256, 256), 90);
        // a restart marker where none may be, in the middle of the entropy-coded data
        jpeg[jpeg.length / 2] = (byte) 0xFF;
        jpeg[jpeg.length / 2 + 1] = (byte) 0xD3;
        assertThatThrownBy(() -> decoder.decode("photo8.jpg", direct(jpeg), out(PrnuLayout.grayBytes(256, 256)), 256,
                256)).isInstanceOf(PhotoFormatException.class).hasMessageStartingWith("photo8.jpg: corrupt JPEG")
                .extracting(e -> ((PhotoFormatException) e).reason()).isEqualTo(PhotoFormatException.Reason.CORRUPT);
    }

    @Test
    void decode_garbageAfterSoi_failsWithCorrupt() throws Exception {
        byte[] junk = new byte[2000];
        new java.util.Random(1).nextBytes(junk);
        junk[0] = (byte) 0xFF;
        junk[1] = (byte) 0xD8;
        junk[2] = (byte) 0xFF;
        junk[3] = (byte) 0xC4; // a DHT segment with a nonsense length and tables
        assertThatThrownBy(() -> decoder.decode("photo5.jpg", direct(junk), out(1 << 20), 0, 0))
                .isInstanceOf(PhotoFormatException.class).hasMessageStartingWith("photo5.jpg: ");
    }

    @Test
    void decode_wrongSize_failsWithWrongSize() throws Exception {
        byte[] jpeg = encode(grayRamp(64, 48), 90);
        assertThatThrownBy(() -> decoder.decode("photo6.jpg", direct(jpeg), out(1 << 20), 48, 64))
                .isInstanceOf(PhotoFormatException.class)
                .hasMessage("photo6.jpg: image is 64x48 but the collection's photos are 48x64")
                .extracting(e -> ((PhotoFormatException) e).reason())
                .isEqualTo(PhotoFormatException.Reason.WRONG_SIZE);
    }

    @Test
    void decode_outputTooSmall_failsBeforeWriting() throws Exception {
        byte[] jpeg = encode(grayRamp(64, 48), 90);
        ByteBuffer small = out(PrnuLayout.grayBytes(48, 64) - 1);
        assertThatThrownBy(() -> decoder.decode("photo7.jpg", direct(jpeg), small, 64, 48))
                .isInstanceOf(BufferTooSmallException.class)
                .hasMessageStartingWith("photo7.jpg: gray image 64x48 needs " + PrnuLayout.grayBytes(48, 64));
        assertThat(small.getInt(0)).isZero();
    }

    @Test
    void dimensions_readsHeaderOnly() throws Exception {
        byte[] jpeg = encode(grayRamp(720, 240), 90);
        assertThat(decoder.dimensions("d.jpg", direct(Arrays.copyOf(jpeg, jpeg.length / 2)))).containsExactly(720, 240);
    }
}
