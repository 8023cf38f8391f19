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

    /**
     * A one-dimensional grid of {@code x} blocks.
     *
     * @param x the number of blocks, at least 1
     * @return this launch, for chaining
     */
    CudaLaunch grid(int x);

    /**
     * A three-dimensional grid of {@code x·y·z} blocks.
     *
     * @param x the number of blocks in x, at least 1
     * @param y the number of blocks in y, at least 1
     * @param z the number of blocks in z, at least 1
     * @return this launch, for chaining
     */
    CudaLaunch grid(int x, int y, int z);

    /**
     * One-dimensional blocks of {@code x} threads.
     *
     * @param x the threads per block, from 1 to the GPU's limit (1024 on current GPUs)
     * @return this launch, for chaining
     */
    CudaLaunch block(int x);

    /**
     * Three-dimensional blocks of {@code x·y·z} threads.
     *
     * @param x the threads per block in x, at least 1
     * @param y the threads per block in y, at least 1
     * @param z the threads per block in z, at least 1; {@code x·y·z} at most the GPU's limit (1024 on current GPUs)
     * @return this launch, for chaining
     */
    CudaLaunch block(int x, int y, int z);

    /**
     * Dynamic shared memory per block in bytes (default 0).
     *
     * @param bytes the dynamic shared memory per block in bytes, from 0 to the GPU's limit
     * @return this launch, for chaining
     */
    CudaLaunch sharedBytes(int bytes);

    /**
     * A pointer argument: device memory of this GPU.
     *
     * @param buffer device memory of this GPU (a kernel's buffer or {@link CudaKernelContext#scratch}); the kernel
     *        receives the address of its first byte
     * @return this launch, for chaining
     */
    CudaLaunch arg(DeviceBuffer buffer);

    /**
     * An {@code int} argument.
     *
     * @param value the value, passed as a 32-bit {@code int}
     * @return this launch, for chaining
     */
    CudaLaunch arg(int value);

    /**
     * A {@code long long} argument.
     *
     * @param value the value, passed as a 64-bit {@code long long}
     * @return this launch, for chaining
     */
    CudaLaunch arg(long value);

    /**
     * A {@code float} argument.
     *
     * @param value the value, passed as a 32-bit {@code float}
     * @return this launch, for chaining
     */
    CudaLaunch arg(float value);

    /**
     * A {@code double} argument.
     *
     * @param value the value, passed as a 64-bit {@code double}
     * @return this launch, for chaining
     */
    CudaLaunch arg(double value);

    /**
     * Queues the kernel on the device's kernel stream and returns without waiting; the runtime waits for it when
     * the preprocess or compare step ends, and an error inside the kernel is reported then.
     *
     * @throws CudaException when the driver refuses the launch (bad configuration, unknown function, ...)
     */
    void launch();
}
