package io.rocket.core;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The contents of the files of one key, read by the runtime's I/O thread into pooled buffers. Valid only during
 * {@link Application#parse}; the buffers are reused afterwards.
 */
public interface InputFiles {

    /**
     * The number of files.
     *
     * @return the number of files, as many as {@link Application#inputFiles(Object)} listed; 0 for a generated item
     */
    int count();

    /**
     * The path of file {@code index}.
     *
     * @param index the file's index, from 0 to {@link #count()} - 1, in the order of
     *        {@link Application#inputFiles(Object)}
     * @return the path as the application listed it, never null
     */
    Path path(int index);

    /**
     * A read-only view of the bytes of file {@code index}, positioned at 0.
     *
     * @param index the file's index, from 0 to {@link #count()} - 1
     * @return the file's whole contents (limit at its size in bytes), never null; valid only during
     *         {@link Application#parse}
     */
    ByteBuffer bytes(int index);
}
