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

    /**
     * The backend this device belongs to.
     *
     * @return the device kind, never null; the kind the application's {@link io.rocket.core.Kernels} are chosen for
     */
    DeviceKind kind();

    /**
     * Index of this device within the node.
     *
     * @return an index from 0 to the node's device count minus 1 (not the CUDA ordinal)
     */
    int index();

    /**
     * A human name, e.g. {@code cpu:0} or the GPU's product name.
     *
     * @return the name for logs and the summary, never null; not necessarily unique
     */
    String name();

    /**
     * Facts for the run summary (name, memory, multiprocessors, ...).
     *
     * @return an unmodifiable map from fact name to a value that serializes to JSON (string, number, boolean),
     *         never null
     */
    Map<String, Object> info();

    /**
     * Allocates device memory; freed by {@link #close()}.
     *
     * @param bytes the capacity in bytes, at least 0
     * @return a buffer of exactly that capacity with length 0, owned by this device (never free it otherwise)
     */
    DeviceBuffer allocate(long bytes);

    /**
     * Whether the cache may allocate its slots when first used, during the run, rather than all before it: true
     * where an allocation is plain host memory that neither stalls the device nor waits for it.
     *
     * @return true when slots may be allocated lazily; false (the default) to allocate them all at start-up
     */
    default boolean allocatesOnFirstUse() {
        return false;
    }

    /**
     * Whether the device's cache (L1) may be a byte budget: buffers made during the run, of the sizes items need,
     * and a loaded item moved into one of its own size with {@link #copyOnDevice}. False (the default) where device
     * memory is made once before the run (cuda: an allocation during the run would synchronize the device).
     *
     * @return true when {@link #copyOnDevice} works and {@link #allocate} may be called during the run
     */
    default boolean budgetsCache() {
        return false;
    }

    /**
     * Whether the device's memory is the host's memory, so kernels can read items where the node's host cache (L2)
     * holds them: no cache of its own (L1), no copy of an item, one memory budget for the node. True for cpu; false
     * (the default) where the device has memory of its own (cuda, and sim, which models a GPU's copies).
     *
     * @return true when {@link #view} works
     */
    default boolean readsHostMemory() {
        return false;
    }

    /**
     * A device buffer over host memory, for a device that {@link #readsHostMemory reads host memory}: kernels read
     * and write {@code host}'s memory through it, with a view of their own. Its length starts at 0; the caller keeps
     * it equal to the host buffer's. One view is used by one kernel thread at a time.
     *
     * @param host the memory, owned by its cache or pool; the view does not outlive it
     * @return a new view of the whole of {@code host}'s capacity
     * @throws UnsupportedOperationException where {@link #readsHostMemory} is false
     */
    default DeviceBuffer view(HostBuffer host) {
        throw new UnsupportedOperationException(name() + ": its memory is not the host's");
    }

    /**
     * Copies {@code bytes} from one buffer of this device to another and sets {@code dst}'s length: a cache moving a
     * loaded item into a buffer of its own size. Called on the thread that publishes the item (a copy or kernel
     * thread, or the CPU pool), while no other thread uses either buffer; returns when the copy is complete.
     *
     * @param src   a buffer {@link #allocate allocated} by this device, copied from offset 0
     * @param dst   another buffer of this device, at least {@code bytes} in capacity
     * @param bytes the number of bytes to copy, from 0 to both buffers' capacity
     * @throws UnsupportedOperationException where {@link #budgetsCache} is false
     */
    default void copyOnDevice(DeviceBuffer src, DeviceBuffer dst, long bytes) {
        throw new UnsupportedOperationException(name() + ": no copies between device buffers");
    }

    /**
     * A piece of a buffer this device allocated, as a buffer of its own over the same memory: the runtime cuts one
     * tile's result buffer into per-pair result slots once, so that the kernels fill them all and one copy brings
     * them back.
     *
     * @param whole a buffer from {@link #allocate}
     * @param offset the piece's first byte in {@code whole}
     * @param bytes the piece's capacity; {@code offset + bytes} at most {@code whole}'s capacity
     * @return the piece, its length 0
     */
    DeviceBuffer slice(DeviceBuffer whole, long offset, long bytes);

    /**
     * Bytes of device memory a cache may still take by default.
     *
     * @return a size in bytes, at least 0: what is free now less a reserve the device keeps for itself (for a GPU),
     *         or a fixed default where memory is not a device's own (cpu, sim)
     */
    long defaultCacheBytes();

    /**
     * Copies {@code bytes} from host to device and sets {@code dst}'s length. Called only on the device's
     * host-to-device thread; returns when the copy is complete.
     *
     * @param src the host buffer to copy from, from offset 0; its position, limit and length are not used
     * @param dst a buffer {@link #allocate allocated} by this device, at least {@code bytes} in capacity
     * @param bytes the number of bytes to copy, from 0 to both buffers' capacity
     */
    void copyToDevice(HostBuffer src, DeviceBuffer dst, long bytes);

    /**
     * Copies {@code bytes} from device to host and sets {@code dst}'s length. Called only on the device's
     * device-to-host thread; returns when the copy is complete.
     *
     * @param src a buffer {@link #allocate allocated} by this device, copied from offset 0
     * @param dst the host buffer to copy into, from offset 0, at least {@code bytes} in capacity
     * @param bytes the number of bytes to copy, from 0 to both buffers' capacity
     */
    void copyToHost(DeviceBuffer src, HostBuffer dst, long bytes);

    /**
     * The context handed to kernels; used only on the kernel thread.
     *
     * @return the device's one kernel context, the same object on every call, never null
     */
    DeviceKernelContext kernelContext();

    /** Frees all device memory of this device. */
    @Override
    void close();
}
