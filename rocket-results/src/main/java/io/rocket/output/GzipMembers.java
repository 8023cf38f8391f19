package io.rocket.output;

import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Gzip as a series of members (RFC 1952 allows any number, and gzip, zcat, Python's {@code gzip} and Java's
 * {@code GZIPInputStream} read them as one stream). A member ends at {@link #finishMember}, so a run journal can cut
 * the compressed file back to any length it recorded and a resumed run appends new members there. Compresses at
 * {@link Deflater#BEST_SPEED}: pair files are large and written while the run goes on. One deflater and one buffer
 * for the stream's life; not thread-safe (its writer's lock guards it).
 */
public final class GzipMembers extends OutputStream {
    /** Magic, deflate, no flags, no time, no extra flags, unknown OS. */
    private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};

    private final OutputStream out;
    private final Deflater deflater = new Deflater(Deflater.BEST_SPEED, true);
    private final CRC32 crc = new CRC32();
    private final byte[] buffer = new byte[1 << 16];
    private final byte[] single = new byte[1];
    private final byte[] trailer = new byte[8];
    private boolean open;

    /**
     * Compresses into {@code out}.
     *
     * @param out where the members go; closed by {@link #close}
     */
    public GzipMembers(OutputStream out) {
        this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
        single[0] = (byte) b;
        write(single, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        if (length == 0) {
            return;
        }
        if (!open) {
            out.write(HEADER);
            open = true;
        }
        crc.update(bytes, offset, length);
        deflater.setInput(bytes, offset, length);
        // Consume all the input before returning: the caller reuses its array.
        while (!deflater.needsInput()) {
            int n = deflater.deflate(buffer, 0, buffer.length, Deflater.NO_FLUSH);
            if (n > 0) {
                out.write(buffer, 0, n);
            }
        }
    }

    /**
     * Ends the current member (its compressed data and trailer are all handed to the underlying stream); the next
     * write starts a new one. Nothing happens when no member is open.
     *
     * @throws IOException when the underlying stream fails
     */
    public void finishMember() throws IOException {
        if (!open) {
            return;
        }
        deflater.finish();
        while (!deflater.finished()) {
            int n = deflater.deflate(buffer, 0, buffer.length);
            if (n > 0) {
                out.write(buffer, 0, n);
            }
        }
        putInt(trailer, 0, (int) crc.getValue());
        putInt(trailer, 4, (int) deflater.getBytesRead()); // ISIZE: the input's length modulo 2^32
        out.write(trailer);
        deflater.reset();
        crc.reset();
        open = false;
    }

    private static void putInt(byte[] into, int at, int value) {
        for (int k = 0; k < 4; k++) {
            into[at + k] = (byte) (value >>> (8 * k));
        }
    }

    /** Ends the member, frees the deflater and closes the underlying stream. */
    @Override
    public void close() throws IOException {
        try {
            finishMember();
        } finally {
            deflater.end();
            out.close();
        }
    }
}
