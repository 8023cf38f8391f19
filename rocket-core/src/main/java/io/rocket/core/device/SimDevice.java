package io.rocket.core.device;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;

import java.nio.ByteBuffer;
import java.util.Map;

/**
 * The sim backend: kernels and copies take modelled time and touch no data, so runtime overheads can be measured
 * and large clusters simulated on one small machine. Kernels model their cost with
 * {@link io.rocket.core.KernelContext#occupy(long)}; copies take {@code bytes / bandwidth}. Device buffers hold
 * no memory; results copied back are zero-filled so they are deterministic. A slowdown factor multiplies every
 * modelled cost (kernels and copies), so one node of a simulated cluster can stand for a straggler or an older GPU.
 */
public final class SimDevice implements Device {
    /** Default modelled copy bandwidth in bytes per second (a PCIe 3 x16 link). */
    public static final double DEFAULT_COPY_BYTES_PER_SECOND = 12e9;

    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(1 << 16).asReadOnlyBuffer();

    private final int index;
    private final double copyBytesPerSecond;
    private final double slowdown;
    private final SimClock toDevice = new SimClock();
    private final SimClock toHost = new SimClock();
    private final Context context = new Context();

    /**
     * Creates a sim device.
     *
     * @param index the device's index within the node, from 0
     * @param copyBytesPerSecond the modelled copy bandwidth in each direction, in bytes per second
     * @param slowdown factor on every modelled cost (1: as modelled; 4: four times slower)
     * @throws IllegalArgumentException when {@code slowdown} is not above 0
     */
    public SimDevice(int index, double copyBytesPerSecond, double slowdown) {
        if (!(slowdown > 0)) {
            throw new IllegalArgumentException("slowdown must be > 0, got " + slowdown);
        }
        this.index = index;
        this.copyBytesPerSecond = copyBytesPerSecond;
        this.slowdown = slowdown;
    }

    /**
     * Creates a sim device at its modelled speed.
     *
     * @param index the device's index within the node, from 0
     * @param copyBytesPerSecond the modelled copy bandwidth in each direction, in bytes per second
     */
    public SimDevice(int index, double copyBytesPerSecond) {
        this(index, copyBytesPerSecond, 1);
    }

    /**
     * Creates a sim device at its modelled speed, with {@link #DEFAULT_COPY_BYTES_PER_SECOND} copies.
     *
     * @param index the device's index within the node, from 0
     */
    public SimDevice(int index) {
        this(index, DEFAULT_COPY_BYTES_PER_SECOND);
    }

    @Override
    public DeviceKind kind() {
        return DeviceKind.SIM;
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public String name() {
        return "sim:" + index;
    }

    @Override
    public Map<String, Object> info() {
        return Map.of("name", name(), "kind", "sim", "copy_bytes_per_second", copyBytesPerSecond,
                "slowdown", slowdown);
    }

    @Override
    public DeviceBuffer allocate(long bytes) {
        return new SimBuffer(bytes);
    }

    @Override
    public DeviceBuffer slice(DeviceBuffer whole, long offset, long bytes) {
        Slices.check(whole, offset, bytes);
        return new SimBuffer(bytes);
    }

    @Override
    public long defaultCacheBytes() {
        return 1L << 30;
    }

    @Override
    public void copyToDevice(HostBuffer src, DeviceBuffer dst, long bytes) {
        toDevice.occupy(copyNanos(bytes));
        dst.length(bytes);
    }

    @Override
    public void copyToHost(DeviceBuffer src, HostBuffer dst, long bytes) {
        toHost.occupy(copyNanos(bytes));
        ByteBuffer raw = dst.raw();
        int n = (int) Math.min(bytes, raw.capacity());
        for (int k = 0; k < n; k += ZEROS.capacity()) {
            raw.put(k, ZEROS, 0, Math.min(ZEROS.capacity(), n - k));
        }
        dst.length(bytes);
    }

    /** Buffers hold no memory, so making one during the run costs nothing and a copy only moves the length. */
    @Override
    public boolean budgetsCache() {
        return true;
    }

    @Override
    public void copyOnDevice(DeviceBuffer src, DeviceBuffer dst, long bytes) {
        dst.length(bytes);
    }

    private long copyNanos(long bytes) {
        return copyBytesPerSecond <= 0 ? 0 : slowed((long) (bytes * 1e9 / copyBytesPerSecond));
    }

    private long slowed(long nanos) {
        return slowdown == 1 ? nanos : (long) (nanos * slowdown);
    }

    @Override
    public DeviceKernelContext kernelContext() {
        return context;
    }

    @Override
    public void close() {
    }

    /** A device buffer of the sim backend: a size and no memory. */
    static final class SimBuffer extends DeviceBuffer {
        SimBuffer(long capacity) {
            super(capacity);
        }

        @Override
        public ByteBuffer byteBuffer() {
            throw new UnsupportedOperationException("sim device buffers hold no data");
        }
    }

    private final class Context implements DeviceKernelContext {
        private final SimClock clock = new SimClock();
        private long modelled;

        @Override
        public DeviceKind kind() {
            return DeviceKind.SIM;
        }

        @Override
        public int deviceIndex() {
            return index;
        }

        @Override
        public void occupy(long nanos) {
            long slowed = slowed(nanos);
            clock.occupy(slowed);
            modelled += Math.max(0, slowed);
        }

        @Override
        public void begin() {
            modelled = 0;
        }

        @Override
        public long end() {
            return modelled;
        }
    }
}
