package io.rocket.core.cuda;

import io.rocket.core.DeviceBuffer;

/**
 * One kernel launch being described, from {@link CudaKernelContext#kernel(String)}: set the grid and block
 * (one-dimensional by default, 1×1×1 until set), add the arguments in the kernel's parameter order, then
 * {@link #launch()}. The object is reused by its context for every launch, so describing a launch allocates
 * nothing; it is only valid until the next {@code kernel(...)} call and only on the kernel thread.
 *
 * <pre>{@code
 * CudaKernelContext.of(context).kernel("saxpy").grid(blocks).block(256).arg(x).arg(y).arg(n).arg(2.0f).launch();
 * }</pre>
 *
 * <p>Argument types map to CUDA parameter types as: {@link DeviceBuffer} → pointer, {@code int} → {@code int},
 * {@code long} → {@code long long}, {@code float} → {@code float}, {@code double} → {@code double}.
 */
public interface CudaLaunch {

    /** A one-dimensional grid of {@code x} blocks. */
    CudaLaunch grid(int x);

    CudaLaunch grid(int x, int y, int z);

    /** One-dimensional blocks of {@code x} threads. */
    CudaLaunch block(int x);

    CudaLaunch block(int x, int y, int z);

    /** Dynamic shared memory per block in bytes (default 0). */
    CudaLaunch sharedBytes(int bytes);

    /** A pointer argument: device memory of this GPU. */
    CudaLaunch arg(DeviceBuffer buffer);

    CudaLaunch arg(int value);

    /** A {@code long long} argument. */
    CudaLaunch arg(long value);

    CudaLaunch arg(float value);

    CudaLaunch arg(double value);

    /**
     * Queues the kernel on the device's kernel stream and returns without waiting; the runtime waits for it when
     * the preprocess or compare step ends, and an error inside the kernel is reported then.
     *
     * @throws CudaException when the driver refuses the launch (bad configuration, unknown function, ...)
     */
    void launch();
}
