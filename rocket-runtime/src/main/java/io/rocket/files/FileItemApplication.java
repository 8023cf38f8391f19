package io.rocket.files;

import io.rocket.core.Application;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

/**
 * The shape the bundled science applications share: one input file per item, the key is the file's path, outputs
 * and error messages name the item by its file name, and the steps read and write little-endian views of the
 * runtime's buffers. Subclasses supply the sizes, the steps and the kernels.
 *
 * @param <R> the per-pair result
 */
public abstract class FileItemApplication<R> implements Application<Path, R> {

    private final long maxFileBytes;

    /**
     * An application whose items are single files.
     *
     * @param maxFileBytes the largest input file of the run (the I/O buffer size); at least 1 byte is used
     */
    protected FileItemApplication(long maxFileBytes) {
        this.maxFileBytes = Math.max(1, maxFileBytes);
    }

    @Override
    public String label(Path key) {
        return fileName(key);
    }

    @Override
    public final List<Path> inputFiles(Path key) {
        return List.of(key);
    }

    @Override
    public final long maxFileBytes() {
        return maxFileBytes;
    }

    /**
     * The file name of a key, as outputs and error messages show it.
     *
     * @param key the item's path
     * @return its file name (the whole path when it has none)
     */
    public static String fileName(Path key) {
        Path name = key.getFileName();
        return name == null ? key.toString() : name.toString();
    }

    /**
     * A little-endian view of {@code buffer}'s first {@code bytes} bytes; the shared buffer's own position and limit
     * are untouched (other threads may hold views of the same slot).
     *
     * @param buffer a buffer the runtime handed over
     * @param bytes  how many of its bytes the view covers
     * @return the view, at position 0
     */
    protected static ByteBuffer window(ByteBuffer buffer, long bytes) {
        return buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN).clear().limit((int) bytes);
    }
}
