package io.rocket.core;

import java.nio.ByteBuffer;

/**
 * A fixed-capacity region of device memory plus the number of valid bytes. The API exposes no driver types: a
 * backend subclasses it with its own handle (a direct buffer on cpu, nothing on sim, a device pointer on cuda).
 */
public abstract class DeviceBuffer {
    private final long capacity;
    private long length;

    protected DeviceBuffer(long capacity) {
        this.capacity = capacity;
    }

    /** The capacity in bytes. */
    public final long capacity() {
        return capacity;
    }

    /** The number of valid bytes. */
    public final long length() {
        return length;
    }

    /** Sets the number of valid bytes. */
    public final void length(long length) {
        if (length < 0 || length > capacity) {
            throw new IllegalArgumentException("length " + length + " outside 0.." + capacity);
        }
        this.length = length;
    }

    /**
     * The memory as a little-endian buffer, for devices whose memory the host can address (cpu). Shared, not
     * copied: use absolute gets and puts, or take your own {@code duplicate()} for relative access.
     *
     * @throws UnsupportedOperationException on devices whose memory the host cannot address
     */
    public abstract ByteBuffer byteBuffer();
}
