package io.rocket.cache;

/**
 * What a byte-budget {@link SlotCache} needs to know of its buffers: how to make one, how many bytes one holds, and
 * how to move a loaded item from the buffer it was written into to one that fits it.
 *
 * @param <B> the slot buffer type
 */
public interface SlotMemory<B> {

    /**
     * Makes a buffer.
     *
     * @param bytes its capacity in bytes, at least 1
     * @return a new buffer of exactly {@code bytes} capacity
     */
    B allocate(long bytes);

    /**
     * The valid bytes of a buffer: the item's actual size, as its loader recorded it.
     *
     * @param buffer a buffer made by {@link #allocate}
     * @return the number of valid bytes, from 0 to the buffer's capacity
     */
    long length(B buffer);

    /**
     * Copies the first {@code length} bytes of {@code from} to {@code to} and records that length on {@code to}.
     *
     * @param from   the buffer the item was loaded into
     * @param to     a buffer of at least {@code length} bytes
     * @param length the number of bytes to copy
     */
    void copy(B from, B to, long length);
}
