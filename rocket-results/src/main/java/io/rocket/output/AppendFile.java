package io.rocket.output;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;

/**
 * One file that results are appended to, kept in step with a run journal. Bytes are gathered into 64 KiB chunks in
 * memory. Alone, the file writes each chunk as it fills; once a journal drives it ({@link #mark}), chunks are written
 * only by {@link #force}, on the journal's thread and outside the writer's lock, so that no result waits for the disk
 * while the file is being synced. The chunk queue is guarded by {@code ready}, the channel's writes by {@code drain};
 * the rest by the lock of the sink that writes (one writer at a time).
 */
public final class AppendFile extends OutputStream {
    private static final int CHUNK = 1 << 16;
    /** Bytes a journaled file holds before it writes them itself (a sync that is very late). */
    private static final long MAX_HELD = 64L << 20;

    private final Path path;
    private final ArrayDeque<ByteBuffer> ready = new ArrayDeque<>();
    private final Object drain = new Object();
    private SeekableByteChannel channel;
    private byte[] pending = new byte[CHUNK];
    private int size;
    private long held;
    private long end;
    private boolean journaled;

    /**
     * A file that is not open yet: {@link #cut} opens it.
     *
     * @param path the file
     */
    public AppendFile(Path path) {
        this.path = path;
    }

    /**
     * The file.
     *
     * @return its path
     */
    public Path path() {
        return path;
    }

    /**
     * Whether the file is open: {@link #cut} opened it and {@link #close} has not closed it since.
     *
     * @return true when open
     */
    public boolean isOpen() {
        return channel != null;
    }

    /**
     * Opens the file (creating it if needed), cuts it back to {@code length} bytes and appends from there. What was
     * appended before and not yet written is written first, then cut away with the rest.
     *
     * @param length the length to keep; 0 starts the file anew (the caller writes its header then)
     * @throws IOException when the file cannot be opened or is shorter than {@code length} (it changed after a
     *         journal recorded it)
     */
    public void cut(long length) throws IOException {
        close();
        channel = Files.newByteChannel(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        long fileSize = channel.size();
        if (fileSize < length) {
            channel.close();
            channel = null;
            throw new IOException(path + " holds " + fileSize + " bytes, fewer than the " + length
                    + " recorded in the journal: it changed after the run stopped");
        }
        channel.truncate(length);
        channel.position(length);
        end = length;
    }

    /**
     * Call after each appended record: writes the sealed chunks when the file is not journaled, or when a journaled
     * file holds more than it should wait for.
     *
     * @throws IOException when the file cannot be written
     */
    public void written() throws IOException {
        boolean full;
        synchronized (ready) {
            full = journaled ? held >= MAX_HELD : !ready.isEmpty();
        }
        if (full) {
            drain();
        }
    }

    @Override
    public void write(int b) {
        if (size == CHUNK) {
            seal();
        }
        pending[size++] = (byte) b;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        while (length > 0) {
            if (size == CHUNK) {
                seal();
            }
            int n = Math.min(length, CHUNK - size);
            System.arraycopy(bytes, offset, pending, size, n);
            size += n;
            offset += n;
            length -= n;
        }
    }

    private void seal() {
        if (size > 0) {
            synchronized (ready) {
                ready.add(ByteBuffer.wrap(pending, 0, size));
                held += size;
            }
            end += size;
            pending = new byte[CHUNK];
            size = 0;
        }
    }

    /**
     * Ends the file's content here (a journal drives the file from now on).
     *
     * @return the file's length at this point, counting what is still in memory
     */
    public long mark() {
        journaled = true;
        seal();
        return end;
    }

    /**
     * Whether a journal drives the file ({@link #mark} was called): then only {@link #force} writes its chunks.
     *
     * @return true once marked
     */
    public boolean isJournaled() {
        return journaled;
    }

    /**
     * Writes everything appended so far, the chunk still filling included, so that a reader, a process stopped by a
     * signal or a crash finds it in the file. Only for a file no journal drives: there the journal decides what is
     * written when.
     *
     * @throws IOException when the file cannot be written
     * @throws IllegalStateException when a journal drives the file
     */
    public void writeOut() throws IOException {
        if (journaled) {
            throw new IllegalStateException(path + " is driven by a journal");
        }
        seal();
        drain();
    }

    /**
     * Writes the chunks sealed so far, in order.
     *
     * @throws IOException when the file cannot be written
     */
    public void drain() throws IOException {
        synchronized (drain) {
            while (true) {
                ByteBuffer chunk;
                synchronized (ready) {
                    chunk = ready.poll();
                }
                if (chunk == null) {
                    return;
                }
                int length = chunk.remaining();
                while (chunk.hasRemaining()) {
                    channel.write(chunk);
                }
                synchronized (ready) {
                    held -= length;
                }
            }
        }
    }

    /**
     * Writes {@code bytes} at {@code position}, beside the appends (a header that is rewritten as the file grows).
     *
     * @param bytes what to write, from its position to its limit
     * @param position where in the file, below what has been appended
     * @throws IOException when the file cannot be written
     */
    public void writeAt(ByteBuffer bytes, long position) throws IOException {
        synchronized (drain) {
            FileChannel file = (FileChannel) channel;
            long at = position;
            while (bytes.hasRemaining()) {
                at += file.write(bytes, at);
            }
        }
    }

    /**
     * Makes what is written durable (fsync), without writing what is still in memory.
     *
     * @throws IOException when the file cannot be synced
     */
    public void sync() throws IOException {
        if (channel instanceof FileChannel file) {
            file.force(false);
        }
    }

    /**
     * Writes what {@link #mark} ended and makes it durable.
     *
     * @throws IOException when the file cannot be written or synced
     */
    public void force() throws IOException {
        drain();
        sync();
    }

    /** Writes everything appended and closes the file; {@link #cut} opens it again. */
    @Override
    public void close() throws IOException {
        if (channel != null) {
            seal();
            drain();
            channel.close();
            channel = null;
        }
    }
}
