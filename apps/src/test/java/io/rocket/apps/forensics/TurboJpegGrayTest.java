package io.rocket.apps.forensics;

import org.junit.jupiter.api.Test;

import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * libjpeg-turbo's gray decode gives the Java paths' values (the luma decoder's for colour photos, ImageIO's for
 * gray ones), photo sizes that are not whole blocks included, and a damaged photo still fails with the Java paths'
 * message. Skips where the system has no libturbojpeg.
 */
class TurboJpegGrayTest {

    private static byte[] jpeg(BufferedImage image, float quality, boolean progressive) throws IOException {
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
            ImageWriteParam param = writer.getDefaultWriteParam();
            if (progressive) {
                param.setProgressiveMode(ImageWriteParam.MODE_DEFAULT);
            } else {
                param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
                param.setCompressionQuality(quality);
            }
            writer.setOutput(out);
            writer.write(null, new IIOImage(image, null, null), param);
        } finally {
            writer.dispose();
        }
        return bytes.toByteArray();
    }

    private static BufferedImage image(int width, int height, int type, long seed) {
        BufferedImage image = new BufferedImage(width, height, type);
        Random random = new Random(seed);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int r = (int) Math.max(0, Math.min(255, 128 + 90 * Math.sin(x * 0.09) + 12 * random.nextGaussian()));
                int g = (int) Math.max(0, Math.min(255, 120 + 80 * Math.cos(y * 0.07) + 12 * random.nextGaussian()));
                int b = (int) Math.max(0, Math.min(255, 100 + 60 * Math.sin((x + y) * 0.05)
                        + 12 * random.nextGaussian()));
                image.setRGB(x, y, (r << 16) | (g << 8) | b);
            }
        }
        return image;
    }

    private static float[] decode(JpegGrayDecoder decoder, byte[] photo, int width, int height) throws Exception {
        ByteBuffer out = ByteBuffer.allocateDirect((int) PrnuLayout.grayBytes(height, width))
                .order(ByteOrder.LITTLE_ENDIAN);
        decoder.decode("photo.jpg", ByteBuffer.wrap(photo), out, width, height);
        float[] values = new float[width * height];
        out.position(PrnuLayout.HEADER_BYTES);
        out.slice().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(values);
        return values;
    }

    @Test
    void colourAndGrayPhotos_decodeToTheJavaPathsValues() throws Exception {
        assumeThat(TurboJpegGray.available()).as("libturbojpeg on this system").isTrue();
        int[][] sizes = {{64, 48}, {101, 77}, {17, 9}, {200, 150}};
        try (JpegGrayDecoder turbo = new JpegGrayDecoder(); JpegGrayDecoder java = new JpegGrayDecoder(false)) {
            for (int[] size : sizes) {
                for (int type : new int[] {BufferedImage.TYPE_INT_RGB, BufferedImage.TYPE_BYTE_GRAY}) {
                    for (boolean progressive : new boolean[] {false, true}) {
                        byte[] photo = jpeg(image(size[0], size[1], type, size[0] * 31L + type), 0.85f, progressive);
                        assertThat(decode(turbo, photo, size[0], size[1]))
                                .as("%dx%d type %d progressive %s", size[0], size[1], type, progressive)
                                .containsExactly(decode(java, photo, size[0], size[1]));
                    }
                }
            }
        }
    }

    @Test
    void libjpegTurbo_decodesASequentialColourPhotoItself() throws Exception {
        assumeThat(TurboJpegGray.available()).as("libturbojpeg on this system").isTrue();
        byte[] photo = jpeg(image(101, 77, BufferedImage.TYPE_INT_RGB, 9), 0.85f, false);
        float[] values = new float[101 * 77];
        try (TurboJpegGray turbo = new TurboJpegGray(); JpegGrayDecoder java = new JpegGrayDecoder(false)) {
            assertThat(turbo.decode(ByteBuffer.wrap(photo), 101, 77, FloatBuffer.wrap(values))).isTrue();
            assertThat(values).containsExactly(decode(java, photo, 101, 77));
        }
    }

    @Test
    void aTruncatedPhoto_failsAsOnTheJavaPaths() throws Exception {
        assumeThat(TurboJpegGray.available()).as("libturbojpeg on this system").isTrue();
        byte[] photo = jpeg(image(96, 64, BufferedImage.TYPE_INT_RGB, 5), 0.9f, false);
        byte[] cut = Arrays.copyOf(photo, photo.length * 2 / 3);
        String expected;
        try (JpegGrayDecoder java = new JpegGrayDecoder(false)) {
            expected = catchMessage(() -> decode(java, cut, 96, 64));
        }
        try (JpegGrayDecoder turbo = new JpegGrayDecoder()) {
            assertThatThrownBy(() -> decode(turbo, cut, 96, 64)).isInstanceOf(PhotoFormatException.class)
                    .hasMessage(expected);
        }
    }

    private interface Call {
        void run() throws Exception;
    }

    private static String catchMessage(Call call) {
        try {
            call.run();
        } catch (Exception e) {
            return e.getMessage();
        }
        throw new AssertionError("no failure");
    }
}
