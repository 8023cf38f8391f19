package io.rocket.core.device;

import io.rocket.core.HostBuffer;
import io.rocket.core.RocketException;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Host memory from {@link ByteBuffer#allocateDirect}: used on nodes without GPUs. Freed by the garbage collector
 * once the runtime drops its buffers.
 */
public final class DirectHostMemory implements HostMemory {
    private final AtomicLong allocated = new AtomicLong();

    /** Host memory with nothing allocated yet. */
    public DirectHostMemory() {
    }

    @Override
    public HostBuffer allocate(long bytes) {
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new RocketException("host buffer of " + bytes + " bytes is larger than the 2 GiB a buffer may have");
        }
        try {
            HostBuffer buffer = new HostBuffer(ByteBuffer.allocateDirect((int) bytes));
            allocated.addAndGet(bytes);
            return buffer;
        } catch (OutOfMemoryError e) {
            throw new RocketException("out of direct memory allocating " + bytes + " bytes after "
                    + allocated.get() + " (raise -XX:MaxDirectMemorySize or lower the cache sizes)", e);
        }
    }

    @Override
    public boolean allocatesOnFirstUse() {
        return true;
    }

    @Override
    public long allocatedBytes() {
        return allocated.get();
    }

    @Override
    public void close() {
        allocated.set(0);
    }
}
