package io.rocket.core;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The contents of the files of one key, read by the runtime's I/O thread into pooled buffers. Valid only during
 * {@link Application#parse}; the buffers are reused afterwards.
 */
public interface InputFiles {

    /** The number of files. */
    int count();

    /** The path of file {@code index}. */
    Path path(int index);

    /** A read-only view of the bytes of file {@code index}, positioned at 0. */
    ByteBuffer bytes(int index);
}
