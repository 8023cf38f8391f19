package io.rocket.core;

import java.nio.ByteBuffer;

/**
 * A fixed-capacity region of device memory plus the number of valid bytes. The API exposes no driver types: a
 * backend subclasses it with its own handle (a direct buffer on cpu, nothing on sim, a device pointer on cuda).
 *
 * <p>Where the host can address the memory (cpu), application code gets a view of its own through
 * {@link #byteBuffer()}, readied by the runtime at each hand-over; the backend's copies use its own buffer, so an
 * application's position, limit or byte order never reaches a copy or the next kernel that gets the buffer.
 */
public abstract class DeviceBuffer {
    private final long capacity;
    /** Application code's view of host-addressable memory; null where the host cannot address it. */
    private final ByteBuffer view;
    private long length;

    /**
     * Memory the host cannot address (sim, cuda): {@link #byteBuffer()} throws.
     *
     * @param capacity the size of the device memory in bytes, at least 0; the subclass holds the memory itself
     */
    protected DeviceBuffer(long capacity) {
        this.capacity = capacity;
        this.view = null;
    }

    /**
     * Memory the host can address: the backend copies through {@code memory}, kernels get their own view of it.
     *
     * @param memory the whole memory (its capacity becomes this buffer's), owned by the backend from now on; the
     *        kernels' view of it is little-endian
     */
    protected DeviceBuffer(ByteBuffer memory) {
        this.capacity = memory.capacity();
        this.view = AppView.of(memory);
    }

    /**
     * The capacity in bytes.
     *
     * @return the capacity in bytes, fixed for the buffer's life
     */
    public final long capacity() {
        return capacity;
    }

    /**
     * The number of valid bytes.
     *
     * @return the number of valid bytes, from 0 to {@link #capacity()}, counted from offset 0
     */
    public final long length() {
        return length;
    }

    /**
     * Sets the number of valid bytes. The runtime sets it from what a kernel returns; kernels need not.
     *
     * @param length the number of valid bytes, from 0 to {@link #capacity()}
     * @throws IllegalArgumentException when {@code length} is outside that range
     */
    public final void length(long length) {
        if (length < 0 || length > capacity) {
            throw new IllegalArgumentException("length " + length + " outside 0.." + capacity);
        }
        this.length = length;
    }

    /**
     * The memory as a little-endian buffer, for devices whose memory the host can address (cpu). When a kernel gets
     * the buffer to fill (preprocess's output, compare's result) it is at position 0 with its limit at
     * {@link #capacity()}; when it gets it to read (preprocess's input, compare's two items) it is at position 0 with
     * its limit at {@link #length()}. Relative and absolute gets and puts both work: each buffer is handed to one
     * kernel at a time, on its device's kernel thread, and no other thread moves the view's position. The same
     * object on every call, so hot paths allocate nothing.
     *
     * @return the kernel's view of the memory, never null; valid only while the kernel that got the buffer runs
     * @throws UnsupportedOperationException on devices whose memory the host cannot address
     */
    public ByteBuffer byteBuffer() {
        if (view == null) {
            throw new UnsupportedOperationException(getClass().getSimpleName() + ": this device's memory is not "
                    + "addressable from the host");
        }
        return view;
    }

    /**
     * Called by the runtime just before a kernel fills this buffer: {@link #byteBuffer()} at position 0 with its
     * limit at capacity, and no valid bytes. Kernels need not call it.
     */
    public final void handOverForWriting() {
        length = 0;
        if (view != null) {
            AppView.reset(view, capacity);
        }
    }

    /**
     * Called by the runtime just before a kernel reads this buffer: {@link #byteBuffer()} at position 0 with its
     * limit at {@link #length()}. Kernels need not call it.
     */
    public final void handOverForReading() {
        if (view != null) {
            AppView.reset(view, length);
        }
    }
}
