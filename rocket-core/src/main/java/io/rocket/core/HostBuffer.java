package io.rocket.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A fixed-capacity region of off-heap host memory (direct, or pinned on CUDA nodes) plus the number of valid bytes.
 * Allocated once by the runtime and reused; applications never allocate or free them.
 */
public final class HostBuffer {
    private final ByteBuffer memory;
    private long length;

    /** Wraps a direct buffer; the runtime owns it. */
    public HostBuffer(ByteBuffer memory) {
        if (!memory.isDirect()) {
            throw new IllegalArgumentException("host buffers must be direct");
        }
        this.memory = memory.order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The capacity in bytes. */
    public long capacity() {
        return memory.capacity();
    }

    /** The number of valid bytes. */
    public long length() {
        return length;
    }

    /** Sets the number of valid bytes. */
    public void length(long length) {
        if (length < 0 || length > memory.capacity()) {
            throw new IllegalArgumentException("length " + length + " outside 0.." + memory.capacity());
        }
        this.length = length;
    }

    /**
     * The memory as a little-endian buffer, shared and not copied (so hot paths allocate nothing): use absolute
     * gets and puts, or take your own {@code duplicate()} for relative access.
     */
    public ByteBuffer byteBuffer() {
        return memory;
    }

    /** The same as {@link #byteBuffer()}: the runtime's name for it in copies. */
    public ByteBuffer raw() {
        return memory;
    }
}
