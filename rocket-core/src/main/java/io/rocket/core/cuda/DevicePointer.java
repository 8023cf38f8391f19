package io.rocket.core.cuda;

import jcuda.driver.CUdeviceptr;

/**
 * A device pointer whose raw address Rocket can read: kernel arguments are marshalled as 8-byte addresses from
 * reused arrays (no wrapper object per launch), and cuFFT, bound through JNA, takes plain addresses.
 */
final class DevicePointer extends CUdeviceptr {

    /** A pointer for {@code cuMemAlloc} to fill. */
    DevicePointer() {
    }

    /** {@code offset} bytes into {@code base}'s memory (a slice; JCuda's copies add the offset themselves). */
    DevicePointer(DevicePointer base, long offset) {
        super(base, offset);
    }

    /** The device address (0 before allocation or after free). */
    long address() {
        return getNativePointer() + getByteOffset();
    }
}
