package io.rocket.node;

import io.rocket.core.InputFiles;
import io.rocket.core.InputNames;
import io.rocket.core.summary.InputTraffic;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A pooled direct buffer holding the files of one key as read by the I/O thread, presented to the parser as
 * {@link InputFiles}. Works through {@link Files#newByteChannel} so any file system provider (local, sftp, s3)
 * serves; never uses {@code Path.toFile()}.
 */
final class FileBuffer implements InputFiles {
    private static final int CHUNK_BYTES = 1 << 20;
    private final int capacity;
    /** Allocated at the first read, then reused: a run whose items all come from the disk cache never needs it. */
    private ByteBuffer memory;
    private final List<Path> paths = new ArrayList<>(2);
    private int[] offsets = new int[4];
    /** The copy buffer of remote reads, allocated at the first one. */
    private byte[] chunk;
    /** The disk-cache key of the item whose files these are, taken before they were read; or null. */
    private Object diskKey;

    FileBuffer(int capacity) {
        this.capacity = capacity;
    }

    /**
     * Reads {@code files} back to back, counting each file's bytes and time under its scheme in {@code traffic};
     * the message of an exception names the file and the problem.
     */
    void read(List<Path> files, InputTraffic traffic) throws IOException {
        if (memory == null) {
            memory = ByteBuffer.allocateDirect(capacity);
        }
        paths.clear();
        if (offsets.length < files.size() + 1) {
            offsets = new int[files.size() + 1];
        }
        int position = 0;
        for (int f = 0; f < files.size(); f++) {
            Path path = files.get(f);
            String name = InputNames.of(path);
            offsets[f] = position;
            long start = System.nanoTime();
            try {
                String scheme = InputTraffic.scheme(path);
                long size = "sftp".equals(scheme) ? readStream(path, name, position) : readChannel(path, name, position);
                position += (int) size;
                traffic.record(scheme, size, System.nanoTime() - start);
            } catch (NoSuchFileException e) {
                throw new IOException(name + ": no such file" + danglingLink(path), e);
            } catch (IOException e) {
                if (e.getMessage() != null && e.getMessage().startsWith(name)) {
                    throw e;
                }
                throw new IOException(name + ": cannot read: " + e, e);
            }
            paths.add(path);
        }
        offsets[files.size()] = position;
    }

    /** " (a dangling symbolic link to TARGET)" when {@code path} is one, else "". */
    private static String danglingLink(Path path) {
        try {
            if (Files.isSymbolicLink(path)) {
                return " (a dangling symbolic link to " + Files.readSymbolicLink(path) + ")";
            }
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            // not a link we can read: the plain message says enough
        }
        return "";
    }

    /**
     * A file through its channel, straight into the direct buffer; returns its size. Local files, and S3 objects,
     * whose channel fetches several parts ahead itself.
     */
    private long readChannel(Path path, String name, int position) throws IOException {
        try (SeekableByteChannel channel = Files.newByteChannel(path)) {
            ByteBuffer target = target(name, channel.size(), position);
            while (target.hasRemaining()) {
                if (channel.read(target) < 0) {
                    throw new IOException(name + ": file shrank while being read");
                }
            }
            return target.limit() - position;
        }
    }

    /**
     * An SFTP file through its input stream, which keeps several read requests in flight (its channel waits for each
     * chunk in turn: 1.6x slower on loopback, worse with real latency), at the cost of one copy per chunk.
     */
    private long readStream(Path path, String name, int position) throws IOException {
        ByteBuffer target = target(name, Files.size(path), position);
        if (chunk == null) {
            chunk = new byte[CHUNK_BYTES];
        }
        try (InputStream in = Files.newInputStream(path)) {
            while (target.hasRemaining()) {
                int n = in.read(chunk, 0, Math.min(chunk.length, target.remaining()));
                if (n < 0) {
                    throw new IOException(name + ": file shrank while being read");
                }
                target.put(chunk, 0, n);
            }
        }
        return target.limit() - position;
    }

    private ByteBuffer target(String name, long size, int position) throws IOException {
        if (size > memory.capacity() - position) {
            throw new IOException(name + ": " + size + " bytes, more than the " + memory.capacity()
                    + " bytes this application accepts per item");
        }
        return memory.duplicate().clear().position(position).limit(position + (int) size);
    }

    Object diskKey() {
        return diskKey;
    }

    void diskKey(Object key) {
        diskKey = key;
    }

    @Override
    public int count() {
        return paths.size();
    }

    @Override
    public Path path(int index) {
        return paths.get(index);
    }

    @Override
    public ByteBuffer bytes(int index) {
        return memory.asReadOnlyBuffer().clear().position(offsets[index]).limit(offsets[index + 1]).slice();
    }
}
