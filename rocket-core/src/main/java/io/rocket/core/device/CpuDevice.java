package io.rocket.core.device;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;

/**
 * The cpu backend: device memory is off-heap direct memory, copies are memcpy on the copy threads and kernels are
 * the application's Java code on the kernel thread. It runs anywhere and serves as the reference for other backends.
 */
public final class CpuDevice implements Device {
    private final int index;
    private final DirectHostMemory memory = new DirectHostMemory();
    private final Context context = new Context();

    /**
     * Creates a cpu device; it allocates nothing until asked.
     *
     * @param index the device's index within the node, from 0
     */
    public CpuDevice(int index) {
        this.index = index;
    }

    @Override
    public DeviceKind kind() {
        return DeviceKind.CPU;
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public String name() {
        return "cpu:" + index;
    }

    @Override
    public Map<String, Object> info() {
        return Map.of("name", name(), "kind", "cpu", "cores", Runtime.getRuntime().availableProcessors());
    }

    @Override
    public DeviceBuffer allocate(long bytes) {
        return new CpuBuffer(memory.allocate(bytes).raw());
    }

    @Override
    public boolean allocatesOnFirstUse() {
        return true;
    }

    @Override
    public long defaultCacheBytes() {
        return 256L << 20;
    }

    @Override
    public void copyToDevice(HostBuffer src, DeviceBuffer dst, long bytes) {
        copy(src.raw(), ((CpuBuffer) dst).memory, bytes);
        dst.length(bytes);
    }

    @Override
    public void copyToHost(DeviceBuffer src, HostBuffer dst, long bytes) {
        copy(((CpuBuffer) src).memory, dst.raw(), bytes);
        dst.length(bytes);
    }

    @Override
    public boolean readsHostMemory() {
        return true;
    }

    @Override
    public DeviceBuffer slice(DeviceBuffer whole, long offset, long bytes) {
        Slices.check(whole, offset, bytes);
        return new CpuBuffer(((CpuBuffer) whole).memory.slice((int) offset, (int) bytes));
    }

    @Override
    public DeviceBuffer view(HostBuffer host) {
        return new CpuBuffer(host.raw().duplicate()); // its own position and byte order; the same memory
    }

    @Override
    public boolean budgetsCache() {
        return true;
    }

    @Override
    public void copyOnDevice(DeviceBuffer src, DeviceBuffer dst, long bytes) {
        copy(((CpuBuffer) src).memory, ((CpuBuffer) dst).memory, bytes);
        dst.length(bytes);
    }

    private static void copy(ByteBuffer from, ByteBuffer to, long bytes) {
        // Absolute bulk put: no views allocated, safe while other threads read the source.
        to.put(0, from, 0, (int) bytes);
    }

    @Override
    public DeviceKernelContext kernelContext() {
        return context;
    }

    @Override
    public void close() {
        memory.close();
    }

    /**
     * Device memory of the cpu backend: a direct buffer the copies use with absolute access only, and the kernels'
     * own view of it ({@link DeviceBuffer#byteBuffer()}), whose position only the kernel thread moves.
     */
    static final class CpuBuffer extends DeviceBuffer {
        private final ByteBuffer memory;

        CpuBuffer(ByteBuffer memory) {
            super(memory);
            this.memory = memory.order(ByteOrder.LITTLE_ENDIAN);
        }
    }

    private final class Context implements DeviceKernelContext {
        private long start;

        @Override
        public DeviceKind kind() {
            return DeviceKind.CPU;
        }

        @Override
        public int deviceIndex() {
            return index;
        }

        @Override
        public void occupy(long nanos) {
            // The cpu device "is" its kernel thread, so modelled cost is spent by spinning on it.
            long until = System.nanoTime() + nanos;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
        }

        @Override
        public void begin() {
            start = System.nanoTime();
        }

        @Override
        public long end() {
            return System.nanoTime() - start;
        }
    }
}
