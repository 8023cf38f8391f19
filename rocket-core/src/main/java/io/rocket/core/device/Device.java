package io.rocket.core.device;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;

import java.util.Map;

/**
 * One compute device as the runtime sees it: device memory, copies in each direction and a kernel context. A
 * backend (cpu, sim, cuda) implements it; the pipeline is the same shape for all of them.
 *
 * <p>Threading: {@link #copyToDevice} is called only on the device's host-to-device thread, {@link #copyToHost}
 * only on its device-to-host thread and kernels run only on its kernel thread, so a backend may bind one stream to
 * each. Each call returns when the operation is complete. Allocation happens at start-up, on any thread.
 */
public interface Device extends AutoCloseable {

    DeviceKind kind();

    /** Index of this device within the node. */
    int index();

    /** A human name, e.g. {@code cpu:0} or the GPU's product name. */
    String name();

    /** Facts for the run summary (name, memory, multiprocessors, ...). */
    Map<String, Object> info();

    /** Allocates device memory; freed by {@link #close()}. */
    DeviceBuffer allocate(long bytes);

    /**
     * Whether the cache may allocate its slots when first used, during the run, rather than all before it: true
     * where an allocation is plain host memory that neither stalls the device nor waits for it.
     */
    default boolean allocatesOnFirstUse() {
        return false;
    }

    /** Bytes of device memory a cache may still take by default. */
    long defaultCacheBytes();

    /** Copies {@code bytes} from host to device and sets {@code dst}'s length. */
    void copyToDevice(HostBuffer src, DeviceBuffer dst, long bytes);

    /** Copies {@code bytes} from device to host and sets {@code dst}'s length. */
    void copyToHost(DeviceBuffer src, HostBuffer dst, long bytes);

    /** The context handed to kernels; used only on the kernel thread. */
    DeviceKernelContext kernelContext();

    /** Frees all device memory of this device. */
    @Override
    void close();
}
