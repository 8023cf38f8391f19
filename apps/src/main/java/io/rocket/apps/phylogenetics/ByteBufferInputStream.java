package io.rocket.apps.phylogenetics;

import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * An {@link InputStream} over the remaining bytes of a {@link ByteBuffer} (heap or direct), so that a file already
 * read into a slot can be fed to {@link java.util.zip.GZIPInputStream} without copying it whole. The caller's
 * buffer position is left untouched (the stream reads a duplicate).
 */
final class ByteBufferInputStream extends InputStream {

    private final ByteBuffer buffer;

    ByteBufferInputStream(ByteBuffer source) {
        this.buffer = source.duplicate();
    }

    @Override
    public int read() {
        return buffer.hasRemaining() ? buffer.get() & 0xff : -1;
    }

    @Override
    public int read(byte[] target, int offset, int length) {
        if (length == 0) {
            return 0;
        }
        int n = Math.min(length, buffer.remaining());
        if (n == 0) {
            return -1;
        }
        buffer.get(target, offset, n);
        return n;
    }

    @Override
    public int available() {
        return buffer.remaining();
    }

    @Override
    public long skip(long n) {
        int k = (int) Math.max(0, Math.min(n, buffer.remaining()));
        buffer.position(buffer.position() + k);
        return k;
    }
}
