package io.rocket.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A fixed-capacity region of off-heap host memory (direct, or pinned on CUDA nodes) plus the number of valid bytes.
 * Allocated once by the runtime and reused; applications never allocate or free them.
 *
 * <p>Application code reaches the memory through {@link #byteBuffer()}, a view of its own that the runtime readies
 * each time it hands the buffer over ({@link #handOverForWriting()}, {@link #handOverForReading()}); the runtime's
 * own copies go through {@link #raw()}, so nothing an application does to its view's position, limit or byte order
 * reaches a copy or the next user of the buffer.
 */
public final class HostBuffer {
    private final ByteBuffer memory;
    private final ByteBuffer view;
    private long length;

    /**
     * Wraps a direct buffer; the runtime owns it.
     *
     * @param memory the direct buffer to wrap, whole (its capacity becomes this buffer's); its byte order is set to
     *        little-endian, and it must not be used elsewhere afterwards
     * @throws IllegalArgumentException when {@code memory} is not direct
     */
    public HostBuffer(ByteBuffer memory) {
        if (!memory.isDirect()) {
            throw new IllegalArgumentException("host buffers must be direct");
        }
        this.memory = memory.order(ByteOrder.LITTLE_ENDIAN);
        this.view = AppView.of(memory);
    }

    /**
     * The capacity in bytes.
     *
     * @return the capacity in bytes, fixed for the buffer's life
     */
    public long capacity() {
        return memory.capacity();
    }

    /**
     * The number of valid bytes.
     *
     * @return the number of valid bytes, from 0 to {@link #capacity()}, counted from offset 0
     */
    public long length() {
        return length;
    }

    /**
     * Sets the number of valid bytes. The runtime sets it from what a step returns; application code need not.
     *
     * @param length the number of valid bytes, from 0 to {@link #capacity()}
     * @throws IllegalArgumentException when {@code length} is outside that range
     */
    public void length(long length) {
        if (length < 0 || length > memory.capacity()) {
            throw new IllegalArgumentException("length " + length + " outside 0.." + memory.capacity());
        }
        this.length = length;
    }

    /**
     * The memory as a little-endian buffer for application code. When the runtime hands the buffer over to be filled
     * ({@code parse}'s output) it is at position 0 with its limit at {@link #capacity()}; when it hands it over to be
     * read ({@code postprocess}'s result) it is at position 0 with its limit at {@link #length()}. Relative and
     * absolute gets and puts both work; the position is the step's own until it returns. The same object on every
     * call, so hot paths allocate nothing.
     *
     * @return the application's view of the memory, never null; valid only while the step that got the buffer runs
     */
    public ByteBuffer byteBuffer() {
        return view;
    }

    /**
     * The runtime's buffer for copies: position 0, limit at capacity, always; use absolute access only. Never handed
     * to application code.
     *
     * @return the runtime's own buffer over the whole memory, little-endian, never null
     */
    public ByteBuffer raw() {
        return memory;
    }

    /**
     * Called by the runtime just before application code fills this buffer: {@link #byteBuffer()} at position 0
     * with its limit at capacity, and no valid bytes. Application code need not call it.
     */
    public void handOverForWriting() {
        length = 0;
        AppView.reset(view, memory.capacity());
    }

    /**
     * Called by the runtime just before application code reads this buffer: {@link #byteBuffer()} at position 0
     * with its limit at {@link #length()}. Application code need not call it.
     */
    public void handOverForReading() {
        AppView.reset(view, length);
    }
}
