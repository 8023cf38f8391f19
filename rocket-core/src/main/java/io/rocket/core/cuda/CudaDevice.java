package io.rocket.core.cuda;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.RocketException;
import io.rocket.core.device.Device;
import io.rocket.core.device.DeviceKernelContext;
import io.rocket.core.device.Slices;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUresult;
import jcuda.driver.CUstream_flags;
import jcuda.driver.JCudaDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One NVIDIA GPU as a Rocket device. It uses the GPU's primary context (the one the CUDA runtime and cuFFT use
 * too), with three streams: kernels, host-to-device copies and device-to-host copies, each driven by its own
 * runtime thread. Every method makes the context current on the calling thread first (cuCtxSetCurrent is cheap),
 * so the runtime's threads need no setup; as {@link Device} says, each kind of call comes from one thread at a
 * time.
 *
 * <p>Ordering: each copy is queued on its stream and the stream is synchronised before the method returns, and a
 * kernel step ends by waiting on an event recorded after its kernels ({@link GpuKernelContext#end()}). So every
 * {@link Device} call returns with its work complete, as the interface promises, and a copy is finished before
 * the kernel that reads it is even queued: the pipeline hands work from thread to thread only after that. The
 * three streams still overlap each other (a copy runs while a kernel runs), which is all the paper's pipeline
 * needs; cross-stream events would only save the few microseconds of each synchronisation.
 *
 * <p>Waiting uses the primary context's default scheduling (the driver spins while the process has fewer active
 * contexts than cores, and yields otherwise), which keeps the handover latency of short kernels low.
 *
 * <p>Memory: L1 slots, staging and result buffers are cuMemAlloc blocks, allocated at start-up and freed by
 * {@link #close()}, which must be called after the runtime threads stopped.
 */
public final class CudaDevice implements Device {
    private static final Logger LOG = LoggerFactory.getLogger(CudaDevice.class);
    /** Device memory kept out of the default L1 cache: see {@link #defaultCacheBytes()}. */
    static final long MIN_RESERVE_BYTES = 1L << 30;

    private final int index;
    private final String name;
    /** Operation names for errors, made once: the copy and kernel paths must not allocate. */
    private final String setCurrent;
    private final String toDeviceCopy;
    private final String toHostCopy;
    private final CUdevice device = new CUdevice();
    private final CUcontext context = new CUcontext();
    private final DeviceProperties properties;
    private final CudaStream kernelStream = new CudaStream();
    private final CudaStream toDeviceStream = new CudaStream();
    private final CudaStream toHostStream = new CudaStream();
    private final HostPointers toDevicePointers;
    private final HostPointers toHostPointers;
    private final List<CudaBuffer> buffers = new ArrayList<>();
    private final List<CudaStream> streams = new ArrayList<>();
    private boolean retained;
    private LoadedModules modules;
    private GpuKernelContext kernelContext;
    private long allocated;
    private boolean closed;

    private CudaDevice(int index, int ordinal, PinnedHostMemory pinned, int driverVersion) {
        this.index = index;
        this.name = "cuda:" + ordinal;
        this.setCurrent = name + ": cuCtxSetCurrent";
        this.toDeviceCopy = name + ": host-to-device copy";
        this.toHostCopy = name + ": device-to-host copy";
        CudaDriver.check(JCudaDriver.cuDeviceGet(device, ordinal), "cuDeviceGet(" + ordinal + ")");
        this.properties = DeviceProperties.query(ordinal, device, driverVersion);
        this.toDevicePointers = new HostPointers(pinned);
        this.toHostPointers = new HostPointers(pinned);
    }

    /**
     * Opens GPU {@code ordinal} as the node's device {@code index} and loads the kernel modules into it.
     *
     * @param pinned the node's pinned memory, so copies find its blocks without a lookup per copy
     */
    static CudaDevice open(int index, int ordinal, PinnedHostMemory pinned, List<String> moduleNames) {
        CudaDevice gpu = new CudaDevice(index, ordinal, pinned, CudaDriver.probe().driverVersion());
        try {
            gpu.start(moduleNames);
        } catch (RuntimeException e) {
            gpu.close();
            throw e;
        }
        LOG.info("{}: {}; kernel modules {}", gpu.name, gpu.properties.describe(), gpu.modules.names());
        return gpu;
    }

    private void start(List<String> moduleNames) {
        CudaDriver.check(JCudaDriver.cuDevicePrimaryCtxRetain(context, device), name + ": cuDevicePrimaryCtxRetain");
        retained = true;
        makeCurrent();
        for (CudaStream stream : List.of(kernelStream, toDeviceStream, toHostStream)) {
            // Non-blocking: work a library might put on the legacy default stream never serialises ours.
            CudaDriver.check(JCudaDriver.cuStreamCreate(stream, CUstream_flags.CU_STREAM_NON_BLOCKING),
                    name + ": cuStreamCreate");
            streams.add(stream);
        }
        modules = LoadedModules.load(moduleNames, name + " (" + properties.product() + ", compute "
                + properties.computeCapability() + ")");
        kernelContext = new GpuKernelContext(this, kernelStream, modules);
    }

    /** Makes this GPU's context current on the calling thread. */
    void makeCurrent() {
        CudaDriver.check(JCudaDriver.cuCtxSetCurrent(context), setCurrent);
    }

    CUcontext context() {
        return context;
    }

    DeviceProperties properties() {
        return properties;
    }

    @Override
    public DeviceKind kind() {
        return DeviceKind.CUDA;
    }

    @Override
    public int index() {
        return index;
    }

    /** {@code cuda:ORDINAL}; the product name is in {@link #info()}. */
    @Override
    public String name() {
        return name;
    }

    @Override
    public Map<String, Object> info() {
        return properties.toMap(name);
    }

    @Override
    public synchronized DeviceBuffer allocate(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative allocation: " + bytes);
        }
        makeCurrent();
        DevicePointer pointer = new DevicePointer();
        int result = JCudaDriver.cuMemAlloc(pointer, Math.max(1, bytes));
        if (result != CUresult.CUDA_SUCCESS) {
            String code = CUresult.stringFor(result);
            throw new CudaException("cannot allocate " + bytes + " bytes on " + name + " (" + properties.product()
                    + ") after " + allocated + " (lower --device-cache-size): " + code, result, code, null);
        }
        CudaBuffer buffer = new CudaBuffer(context, pointer, bytes);
        buffers.add(buffer);
        allocated += bytes;
        return buffer;
    }

    @Override
    public DeviceBuffer slice(DeviceBuffer whole, long offset, long bytes) {
        Slices.check(whole, offset, bytes);
        CudaBuffer parent = (CudaBuffer) whole;
        // Not listed in buffers: the slice's memory is its parent's, freed with it.
        return new CudaBuffer(context, new DevicePointer(parent.pointer(), offset), bytes);
    }

    /**
     * Free device memory minus a reserve of {@code max(1 GiB, 5 % of the GPU's memory)}: the staging and result
     * buffers, cuFFT work areas, the loaded modules and the application's own scratch memory are allocated after
     * the cache is sized, and running out of memory mid-run is worse than a slightly smaller cache. Give
     * {@code --device-cache-size} to choose the size yourself.
     */
    @Override
    public long defaultCacheBytes() {
        makeCurrent();
        long[] free = new long[1];
        long[] total = new long[1];
        CudaDriver.check(JCudaDriver.cuMemGetInfo(free, total), name + ": cuMemGetInfo");
        return Math.max(0, free[0] - reserve(total[0]));
    }

    static long reserve(long totalBytes) {
        return Math.max(MIN_RESERVE_BYTES, totalBytes / 20);
    }

    @Override
    public void copyToDevice(HostBuffer src, DeviceBuffer dst, long bytes) {
        CudaBuffer target = own(dst);
        checkLength(bytes, src.capacity(), dst.capacity(), "to");
        if (bytes > 0) {
            makeCurrent();
            CudaDriver.check(JCudaDriver.cuMemcpyHtoDAsync(target.pointer(), toDevicePointers.of(src.raw()), bytes,
                    toDeviceStream), toDeviceCopy);
            CudaDriver.check(JCudaDriver.cuStreamSynchronize(toDeviceStream), toDeviceCopy);
        }
        dst.length(bytes);
    }

    @Override
    public void copyToHost(DeviceBuffer src, HostBuffer dst, long bytes) {
        CudaBuffer source = own(src);
        checkLength(bytes, src.capacity(), dst.capacity(), "from");
        if (bytes > 0) {
            makeCurrent();
            CudaDriver.check(JCudaDriver.cuMemcpyDtoHAsync(toHostPointers.of(dst.raw()), source.pointer(), bytes,
                    toHostStream), toHostCopy);
            CudaDriver.check(JCudaDriver.cuStreamSynchronize(toHostStream), toHostCopy);
        }
        dst.length(bytes);
    }

    private CudaBuffer own(DeviceBuffer buffer) {
        if (buffer instanceof CudaBuffer cuda && cuda.ownedBy(context)) {
            return cuda;
        }
        throw new IllegalArgumentException(name + ": not a buffer of this GPU ("
                + (buffer == null ? "null" : buffer.getClass().getSimpleName()) + ")");
    }

    /** A copy longer than either side would overrun memory the driver cannot police: refuse it up front. */
    private void checkLength(long bytes, long source, long target, String direction) {
        if (bytes < 0 || bytes > source || bytes > target) {
            throw new IllegalArgumentException("copy " + direction + " " + name + " of " + bytes
                    + " bytes does not fit: source holds " + source + ", target " + target);
        }
    }

    @Override
    public DeviceKernelContext kernelContext() {
        return kernelContext;
    }

    /**
     * Waits for the streams, then frees every buffer, plan, module, stream and event and releases the context.
     * Errors are logged, not thrown: after a kernel fault every call fails, and shutdown must still release all.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!retained || JCudaDriver.cuCtxSetCurrent(context) != CUresult.CUDA_SUCCESS) {
            return;
        }
        for (CudaStream stream : streams) {
            JCudaDriver.cuStreamSynchronize(stream);
        }
        if (kernelContext != null) {
            kernelContext.close();
        }
        for (CudaBuffer buffer : buffers) {
            warn(JCudaDriver.cuMemFree(buffer.pointer()), "cuMemFree");
        }
        buffers.clear();
        allocated = 0;
        if (modules != null) {
            modules.close();
        }
        for (CudaStream stream : streams) {
            JCudaDriver.cuStreamDestroy(stream);
        }
        streams.clear();
        warn(JCudaDriver.cuDevicePrimaryCtxRelease(device), "cuDevicePrimaryCtxRelease");
    }

    private void warn(int result, String operation) {
        if (result != CUresult.CUDA_SUCCESS) {
            LOG.warn("{}: {} failed while closing: {}", name, operation, CUresult.stringFor(result));
        }
    }

    @Override
    public String toString() {
        return name + " (" + properties.describe() + ")";
    }
}
