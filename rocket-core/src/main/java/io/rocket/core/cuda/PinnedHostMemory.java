package io.rocket.core.cuda;

import io.rocket.core.HostBuffer;
import io.rocket.core.RocketException;
import io.rocket.core.device.HostMemory;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Page-locked host memory for a node with GPUs: the L2 slots, staging and result buffers, so every copy runs at
 * full PCIe/NVLink bandwidth and asynchronously. Each buffer is one cuMemHostAlloc block (portable, so every GPU
 * of the node may copy from it), seen from Java as a direct {@link ByteBuffer} over that memory.
 *
 * <p>The memory belongs to the primary context of the first GPU; this object holds its own reference to that
 * context so the blocks stay valid however the devices and this memory are closed. {@link #close()} frees every
 * block: the buffers must not be touched afterwards. Allocation may happen on any thread (it is synchronised).
 */
final class PinnedHostMemory implements HostMemory {
    private static final Logger LOG = LoggerFactory.getLogger(PinnedHostMemory.class);

    private final CUdevice device;
    private final CUcontext context = new CUcontext();
    /** Guarded by {@code this}: each buffer handed out and its block. */
    private final Map<ByteBuffer, Pointer> blocks = new IdentityHashMap<>();
    private long allocated;
    private boolean closed;

    /** Retains the primary context of {@code ordinal} for the memory's lifetime. */
    PinnedHostMemory(int ordinal) {
        this.device = new CUdevice();
        CudaDriver.check(JCudaDriver.cuDeviceGet(device, ordinal), "cuDeviceGet(" + ordinal + ")");
        CudaDriver.check(JCudaDriver.cuDevicePrimaryCtxRetain(context, device), "cuDevicePrimaryCtxRetain");
    }

    @Override
    public synchronized HostBuffer allocate(long bytes) {
        if (closed) {
            throw new IllegalStateException("pinned host memory is closed");
        }
        if (bytes < 0 || bytes > Integer.MAX_VALUE - 8) {
            throw new RocketException("host buffer of " + bytes + " bytes is outside the 0..2 GiB a buffer may have");
        }
        if (bytes == 0) {
            return new HostBuffer(ByteBuffer.allocateDirect(0));
        }
        CudaDriver.check(JCudaDriver.cuCtxSetCurrent(context), "cuCtxSetCurrent");
        Pointer block = new Pointer();
        int result = JCudaDriver.cuMemHostAlloc(block, bytes, JCudaDriver.CU_MEMHOSTALLOC_PORTABLE);
        if (result != CUresult.CUDA_SUCCESS) {
            throw new CudaException("cannot pin " + bytes + " bytes of host memory after " + allocated
                    + " (lower --host-cache-size, or raise the locked-memory limit: ulimit -l): "
                    + CUresult.stringFor(result), result, CUresult.stringFor(result), null);
        }
        HostBuffer buffer = new HostBuffer(block.getByteBuffer(0, bytes));
        blocks.put(buffer.raw(), block);
        allocated += bytes;
        return buffer;
    }

    /** The block behind a buffer this memory handed out, or null. */
    synchronized Pointer pointer(ByteBuffer buffer) {
        return blocks.get(buffer);
    }

    @Override
    public synchronized long allocatedBytes() {
        return allocated;
    }

    /** Frees every block and releases the context; errors are logged, this runs during shutdown. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        JCudaDriver.cuCtxSetCurrent(context);
        for (Pointer block : blocks.values()) {
            int result = JCudaDriver.cuMemFreeHost(block);
            if (result != CUresult.CUDA_SUCCESS) {
                LOG.warn("freeing pinned host memory failed: {}", CUresult.stringFor(result));
            }
        }
        blocks.clear();
        allocated = 0;
        JCudaDriver.cuDevicePrimaryCtxRelease(device);
    }
}
