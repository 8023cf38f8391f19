package io.rocket.apps.forensics;

import java.nio.ByteBuffer;
import javax.imageio.stream.ImageInputStreamImpl;

/**
 * An ImageIO {@link javax.imageio.stream.ImageInputStream} over the remaining bytes of a {@link ByteBuffer} (heap
 * or direct), so that a file already read into a slot is decoded in place instead of being copied into a byte
 * array first. Reads are absolute, so the caller's buffer position is never moved.
 */
final class ByteBufferImageInputStream extends ImageInputStreamImpl {

    private final ByteBuffer buffer;
    private final int base;
    private final int length;

    ByteBufferImageInputStream(ByteBuffer source) {
        this.buffer = source;
        this.base = source.position();
        this.length = source.remaining();
    }

    @Override
    public int read() {
        if (streamPos >= length) {
            return -1;
        }
        bitOffset = 0;
        return buffer.get(base + (int) streamPos++) & 0xff;
    }

    @Override
    public int read(byte[] target, int offset, int len) {
        if (len == 0) {
            return 0;
        }
        int n = (int) Math.min(len, length - streamPos);
        if (n <= 0) {
            return -1;
        }
        bitOffset = 0;
        buffer.get(base + (int) streamPos, target, offset, n);
        streamPos += n;
        return n;
    }

    @Override
    public long length() {
        return length;
    }
}
