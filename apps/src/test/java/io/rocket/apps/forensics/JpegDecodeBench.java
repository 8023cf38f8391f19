package io.rocket.apps.forensics;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * Times the forensics parse step's JPEG decoding for docs/benchmarks.md, side by side in one process and one
 * thread, round after round: libjpeg-turbo's TurboJPEG API decoding to 8-bit gray ({@code TJPF_GRAY}, accurate
 * IDCT: what {@code djpeg -grayscale} does, without its file output), the luma decoder (through
 * {@link JpegGrayDecoder#decode}, gray JPEGs too), and the ImageIO path
 * ({@link JpegGrayDecoder#decodeWithImageIO}). Prints the median of each, their ratios to libjpeg-turbo's, and
 * the largest difference between the luma decoder's gray values and libjpeg-turbo's and ImageIO's. Times are the
 * thread's CPU time (all three run on the calling thread), which other processes on a shared machine inflate less
 * than wall time. Pin it to one core to compare with libjpeg-turbo on one core.
 *
 * <p>Run after {@code mvn -B -o -pl apps -am package -DskipTests}, on a machine with libturbojpeg
 * ({@code apt-get install libturbojpeg0}):
 * {@code taskset -c 1 java -cp apps/target/rocket.jar:apps/target/test-classes
 * io.rocket.apps.forensics.JpegDecodeBench photo.jpg [rounds]}.
 */
public final class JpegDecodeBench {

    /** The few TurboJPEG 2.x functions used, bound through JNA. */
    public interface TurboJpeg extends Library {
        /** {@code TJPF_GRAY}. */
        int TJPF_GRAY = 6;

        /** A decompressor handle. */
        Pointer tjInitDecompress();

        /** Decodes a whole JPEG into {@code dst} in the given pixel format. */
        int tjDecompress2(Pointer handle, Pointer jpeg, long jpegSize, Pointer dst, int width, int pitch, int height,
                int pixelFormat, int flags);

        /** The last error's text. */
        String tjGetErrorStr2(Pointer handle);

        /** Frees a handle. */
        int tjDestroy(Pointer handle);
    }

    private JpegDecodeBench() {
    }

    /**
     * Runs the rounds and prints the timings.
     *
     * @param args the JPEG file and, optionally, the number of rounds (default 30)
     * @throws Exception when the file cannot be read or decoded
     */
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer input = ByteBuffer.allocateDirect(bytes.length);
        input.put(bytes).flip();
        JpegGrayDecoder decoder = new JpegGrayDecoder(true);
        int[] size = decoder.dimensions(file.getFileName().toString(), input);
        int w = size[0];
        int h = size[1];
        ByteBuffer ours = ByteBuffer.allocateDirect((int) PrnuLayout.grayBytes(h, w)).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer imageIo = ByteBuffer.allocateDirect(ours.capacity()).order(ByteOrder.LITTLE_ENDIAN);

        TurboJpeg tj = Native.load("turbojpeg", TurboJpeg.class);
        Pointer handle = tj.tjInitDecompress();
        Memory jpeg = new Memory(bytes.length);
        jpeg.write(0, bytes, 0, bytes.length);
        Memory gray = new Memory((long) w * h);

        long[] turboNs = new long[rounds];
        long[] oursNs = new long[rounds];
        long[] imageIoNs = new long[rounds];
        for (int warm = 0; warm < 5; warm++) {
            turbo(tj, handle, jpeg, bytes.length, gray, w, h);
            decoder.decode("bench", input, ours, w, h);
            decoder.decodeWithImageIO("bench", input, imageIo, w, h);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int r = 0; r < rounds; r++) {
            long t0 = threads.getCurrentThreadCpuTime();
            turbo(tj, handle, jpeg, bytes.length, gray, w, h);
            long t1 = threads.getCurrentThreadCpuTime();
            decoder.decode("bench", input, ours, w, h);
            long t2 = threads.getCurrentThreadCpuTime();
            decoder.decodeWithImageIO("bench", input, imageIo, w, h);
            long t3 = threads.getCurrentThreadCpuTime();
            turboNs[r] = t1 - t0;
            oursNs[r] = t2 - t1;
            imageIoNs[r] = t3 - t2;
        }
        tj.tjDestroy(handle);
        decoder.close();

        byte[] turboGray = gray.getByteArray(0, w * h);
        double maxTurbo = 0;
        double maxImageIo = 0;
        for (int i = 0; i < w * h; i++) {
            float v = ours.getFloat(PrnuLayout.HEADER_BYTES + 4 * i);
            maxTurbo = Math.max(maxTurbo, Math.abs(v - (turboGray[i] & 0xFF)));
            maxImageIo = Math.max(maxImageIo, Math.abs(v - imageIo.getFloat(PrnuLayout.HEADER_BYTES + 4 * i)));
        }
        double turbo = median(turboNs) / 1e6;
        double luma = median(oursNs) / 1e6;
        double old = median(imageIoNs) / 1e6;
        System.out.printf(Locale.ROOT, "%s: %dx%d, %d bytes, %d rounds (medians)%n", file.getFileName(), w, h,
                bytes.length, rounds);
        System.out.printf(Locale.ROOT, "libjpeg-turbo gray   %8.1f ms%n", turbo);
        System.out.printf(Locale.ROOT, "luma decoder         %8.1f ms  (%.2fx libjpeg-turbo)%n", luma, luma / turbo);
        System.out.printf(Locale.ROOT, "ImageIO              %8.1f ms  (%.2fx libjpeg-turbo)%n", old, old / turbo);
        System.out.printf(Locale.ROOT, "largest difference: %.3f from libjpeg-turbo, %.3f from ImageIO%n", maxTurbo,
                maxImageIo);
    }

    private static void turbo(TurboJpeg tj, Pointer handle, Memory jpeg, int length, Memory gray, int w, int h) {
        if (tj.tjDecompress2(handle, jpeg, length, gray, w, w, h, TurboJpeg.TJPF_GRAY, 0) != 0) {
            throw new IllegalStateException("libjpeg-turbo: " + tj.tjGetErrorStr2(handle));
        }
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
