package io.rocket.core.cuda;

import io.rocket.core.DeviceBuffer;
import jcuda.driver.CUcontext;

import java.nio.ByteBuffer;

/**
 * Device memory of the cuda backend (an L1 slot, a staging or a result buffer): a pointer from cuMemAlloc plus the
 * context it belongs to, so a buffer of one GPU handed to another GPU's kernel is refused instead of faulting.
 */
final class CudaBuffer extends DeviceBuffer {
    private final CUcontext owner;
    private final DevicePointer pointer;

    CudaBuffer(CUcontext owner, DevicePointer pointer, long capacity) {
        super(capacity);
        this.owner = owner;
        this.pointer = pointer;
    }

    DevicePointer pointer() {
        return pointer;
    }

    long address() {
        return pointer.address();
    }

    boolean ownedBy(CUcontext context) {
        return owner == context;
    }

    @Override
    public ByteBuffer byteBuffer() {
        throw new UnsupportedOperationException("cuda device memory is not addressable from the host: kernels "
                + "work on it, the copy threads move it");
    }
}
