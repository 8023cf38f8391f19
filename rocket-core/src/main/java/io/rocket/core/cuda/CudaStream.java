package io.rocket.core.cuda;

import jcuda.driver.CUstream;

/** A CUDA stream whose raw handle can be handed to libraries bound through JNA (cuFFT's cufftSetStream). */
final class CudaStream extends CUstream {

    /** The native stream handle. */
    long address() {
        return getNativePointer();
    }
}
