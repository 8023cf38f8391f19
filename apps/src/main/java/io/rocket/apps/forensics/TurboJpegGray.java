package io.rocket.apps.forensics;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;

/**
 * JPEG to gray with libjpeg-turbo, where the system has its TurboJPEG library (Debian and Ubuntu:
 * {@code libturbojpeg0}; bound through JNA, as cuFFT is), for sequential colour photos: the decode a GPU node's few
 * cores per GPU need (about half the luma decoder's time for a 3648×2736 photo). It decodes with the accurate integer
 * IDCT to 8-bit gray, which for a YCbCr photo is its Y channel, 0.299 R + 0.587 G + 0.114 B: the values the Java luma
 * decoder gives. One instance per {@link JpegGrayDecoder} (one thread); its
 * decompressor handle and buffers are reused, growing to the largest photo.
 */
final class TurboJpegGray implements AutoCloseable {

    /** The TurboJPEG 2.x functions used. */
    interface TurboJpeg extends Library {
        /** {@code TJPF_GRAY}: one 8-bit sample per pixel. */
        int TJPF_GRAY = 6;
        /** {@code TJFLAG_ACCURATEDCT}: libjpeg's accurate integer IDCT (islow), as ImageIO's libjpeg. */
        int TJFLAG_ACCURATEDCT = 4096;

        Pointer tjInitDecompress();

        int tjDecompress2(Pointer handle, Pointer jpeg, long jpegSize, Pointer dst, int width, int pitch, int height,
                          int pixelFormat, int flags);

        int tjDestroy(Pointer handle);
    }

    private static final TurboJpeg LIBRARY = load();
    /** Pixels converted to float a slice at a time. */
    private static final int SLICE = 1 << 16;

    private Pointer handle;
    private ByteBuffer jpeg = ByteBuffer.allocateDirect(0);
    private ByteBuffer gray = ByteBuffer.allocateDirect(0);
    private final byte[] bytes = new byte[SLICE];
    private final float[] floats = new float[SLICE];

    private static TurboJpeg load() {
        try {
            return Native.load("turbojpeg", TurboJpeg.class);
        } catch (Throwable absent) {
            return null; // no libturbojpeg: the Java decoders do the work
        }
    }

    /** Whether this JVM found libjpeg-turbo's TurboJPEG library. */
    static boolean available() {
        return LIBRARY != null;
    }

    /**
     * Decodes a whole JPEG of {@code width} × {@code height} pixels into {@code pixels} from index 0, as float gray
     * values 0..255.
     *
     * @return false when libjpeg-turbo refused the data (the caller then decodes it with the Java decoders, whose
     *         errors name the problem); true once every pixel is written
     */
    boolean decode(ByteBuffer fileBytes, int width, int height, FloatBuffer pixels) {
        if (handle == null) {
            handle = LIBRARY.tjInitDecompress();
            if (handle == null) {
                return false;
            }
        }
        int size = fileBytes.remaining();
        if (jpeg.capacity() < size) {
            jpeg = ByteBuffer.allocateDirect(size);
        }
        jpeg.clear();
        jpeg.put(0, fileBytes, fileBytes.position(), size);
        int count = width * height;
        if (gray.capacity() < count) {
            gray = ByteBuffer.allocateDirect(count);
        }
        int status = LIBRARY.tjDecompress2(handle, Native.getDirectBufferPointer(jpeg), size,
                Native.getDirectBufferPointer(gray), width, width, height, TurboJpeg.TJPF_GRAY,
                TurboJpeg.TJFLAG_ACCURATEDCT);
        if (status != 0) {
            return false;
        }
        for (int from = 0; from < count; from += SLICE) {
            int length = Math.min(SLICE, count - from);
            gray.get(from, bytes, 0, length);
            for (int i = 0; i < length; i++) {
                floats[i] = bytes[i] & 0xFF;
            }
            pixels.put(from, floats, 0, length);
        }
        return true;
    }

    @Override
    public void close() {
        if (handle != null) {
            LIBRARY.tjDestroy(handle);
            handle = null;
        }
    }
}
