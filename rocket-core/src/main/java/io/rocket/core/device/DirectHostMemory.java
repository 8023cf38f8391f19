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

    /**
     * The most direct memory this JVM may allocate: {@code -XX:MaxDirectMemorySize}, or when it is not set (or cannot
     * be read) the JVM's default, the heap's maximum size.
     *
     * @return a size in bytes
     */
    public static long maxDirectBytes() {
        try {
            var diagnostic = java.lang.management.ManagementFactory.getPlatformMXBean(
                    com.sun.management.HotSpotDiagnosticMXBean.class);
            if (diagnostic != null) {
                long set = Long.parseLong(diagnostic.getVMOption("MaxDirectMemorySize").getValue());
                if (set > 0) {
                    return set;
                }
            }
        } catch (RuntimeException | LinkageError e) {
            // not a HotSpot JVM, or no management module: fall back to the default
        }
        return Runtime.getRuntime().maxMemory();
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
