package io.rocket.core.cuda;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.KernelContext;

/**
 * What a kernel running on a GPU may ask of its device: launch CUDA kernels by name and make cuFFT plans, all on
 * the device's kernel stream. The runtime hands its {@link KernelContext} to {@link io.rocket.core.Kernels}; on the
 * cuda device that context is one of these, so cuda kernels start with {@link #of(KernelContext)}:
 *
 * <pre>{@code
 * public long compare(K a, DeviceBuffer left, K b, DeviceBuffer right, DeviceBuffer result, KernelContext context) {
 *     CudaKernelContext.of(context).launch("myapp_compare", blocks, 256, left, right, result, length);
 *     return resultBytes;
 * }
 * }</pre>
 *
 * <p>Kernels are {@code extern "C" __global__} functions in the application's {@code src/main/cuda/*.cu}, found by
 * name in every packaged module (so prefix them with the module name). Launches are asynchronous; the runtime
 * waits for the stream when the preprocess or compare step returns, so the step's result is complete before the
 * copy thread reads it and its measured time is the GPU's. {@link #launch(String, int, int, Object...)} is the
 * one-line form (it allocates a small varargs array and boxes numbers); {@link #kernel(String)} describes the same
 * launch with no allocation at all, for kernels launched per pair. Only use a context on the kernel thread that
 * received it.
 */
public interface CudaKernelContext extends KernelContext {

    /**
     * The cuda view of a kernel context.
     *
     * @param context the context the runtime handed to the kernel, never null
     * @return the same object, as a cuda context
     * @throws IllegalArgumentException when {@code context} belongs to another kind of device
     */
    static CudaKernelContext of(KernelContext context) {
        if (context instanceof CudaKernelContext cuda) {
            return cuda;
        }
        throw new IllegalArgumentException("not a cuda kernel context: the kernel runs on a "
                + context.kind().id() + " device");
    }

    /**
     * The grid size for a grid-stride loop over {@code elements} with {@code blockX} threads per block: one thread
     * per element, capped at {@code maxGrid} blocks (the threads then stride), and at least one block.
     *
     * @param elements the number of elements the kernel loops over, at least 0
     * @param blockX the threads per block, at least 1
     * @param maxGrid the most blocks to launch, at least 1 (a few per {@link #multiprocessors() multiprocessor}
     *        is typical)
     * @return the number of blocks, from 1 to {@code maxGrid}
     */
    static int gridFor(long elements, int blockX, int maxGrid) {
        return (int) Math.max(1, Math.min(maxGrid, (elements + blockX - 1) / blockX));
    }

    /**
     * Launches {@code function} on a one-dimensional grid of {@code gridX} blocks of {@code blockX} threads with
     * {@code args} in parameter order: {@link io.rocket.core.DeviceBuffer} (pointer), {@code Integer} ({@code int}),
     * {@code Long} ({@code long long}), {@code Float} or {@code Double}.
     *
     * @param function the name of an {@code extern "C" __global__} function in a packaged kernel module
     * @param gridX the number of blocks, at least 1
     * @param blockX the threads per block, from 1 to the GPU's limit (1024 on current GPUs)
     * @param args the kernel's arguments in parameter order; device buffers must belong to this GPU
     * @throws IllegalArgumentException for an unknown function or an unsupported argument
     * @throws CudaException when the driver refuses the launch
     */
    void launch(String function, int gridX, int blockX, Object... args);

    /**
     * Starts describing a launch of {@code function} without allocating; see {@link CudaLaunch}.
     *
     * @param function the name of an {@code extern "C" __global__} function in a packaged kernel module
     * @return the context's one launch description, reset to a 1×1×1 grid and block with no arguments; valid until
     *         the next call of this method
     * @throws IllegalArgumentException for an unknown function
     */
    CudaLaunch kernel(String function);

    /**
     * A 2-D cuFFT plan of {@code nx} rows by {@code ny} columns (row-major, {@code ny} varies fastest) running on
     * this device's kernel stream. Make it once (e.g. on the first call) and keep it; the device destroys it when
     * it closes if it was not closed before.
     *
     * @param nx the number of rows, at least 1
     * @param ny the number of columns (the fastest-varying dimension), at least 1
     * @param type the transform kind, never null
     * @return a new plan, owned by the caller (close it, or leave it to the device)
     * @throws CudaException when cuFFT is not available or refuses the plan
     */
    default CuFft.Plan fft2d(int nx, int ny, CuFft.Type type) {
        return fft2d(nx, ny, type, 1);
    }

    /**
     * A plan of {@code batch} 2-D transforms of {@code nx} by {@code ny} run by one execution, the arrays one right
     * after another (cuFFT's {@code cufftPlanMany}): many small transforms fill the GPU where one would not. cuFFT
     * allocates the plan's work area, which grows with the batch; make it once and keep it, as {@link #fft2d(int,
     * int, CuFft.Type)}.
     *
     * @param nx the number of rows, at least 1
     * @param ny the number of columns (the fastest-varying dimension), at least 1
     * @param type the transform kind, never null
     * @param batch the number of transforms, at least 1
     * @return a new plan, owned by the caller (close it, or leave it to the device)
     * @throws CudaException when cuFFT is not available or refuses the plan
     */
    CuFft.Plan fft2d(int nx, int ny, CuFft.Type type, int batch);

    /**
     * Device memory of {@code bytes} for the application's own scratch use (counters, FFT work buffers, partial
     * sums), owned by the device and freed when it closes. Allocate once per context (e.g. lazily on the first call,
     * keyed by {@link #deviceIndex()}) and keep it: allocation synchronises the GPU and must stay off hot paths.
     *
     * @param bytes the size in bytes, at least 0
     * @return a new device buffer of that capacity, with undefined contents; never free it yourself
     * @throws CudaException when the GPU has not that much memory left
     */
    DeviceBuffer scratch(long bytes);

    /**
     * Waits for everything queued so far on the kernel stream, then copies the first {@code count} doubles of
     * {@code source} into {@code values}. For applications whose host code steers the GPU between kernels (an
     * optimiser's control loop reads each cost before choosing the next point); a kernel thread that waits here
     * gives up overlap for that step. Uses a small staging buffer of the context: no allocation once it has grown
     * to the largest count asked for.
     *
     * @param source device memory of this GPU holding at least {@code count} doubles from offset 0
     * @param values the host array to fill, from index 0
     * @param count the number of doubles to copy, from 0 to {@code values.length}
     * @throws IllegalArgumentException when {@code count} exceeds {@code values} or the buffer
     * @throws CudaException when a queued kernel failed or the copy is refused
     */
    void readDoubles(DeviceBuffer source, double[] values, int count);

    /**
     * Queues a copy of the first {@code count} ints of {@code values} to {@code target} on the kernel stream, behind
     * the kernels queued so far and ahead of the next: for the small tables a batched kernel reads (which pairs of a
     * tile to compare). The copy goes through pageable memory, so {@code values} may be changed as soon as this
     * returns; no allocation once the staging memory has grown to the largest table.
     *
     * @param target device memory of this GPU with room for {@code count} ints from offset 0
     * @param values the ints, from index 0
     * @param count how many, from 0 to {@code values.length}
     * @throws IllegalArgumentException when {@code count} exceeds {@code values} or the buffer
     */
    void writeInts(DeviceBuffer target, int[] values, int count);

    /**
     * Queues a copy of the device addresses of {@code buffers[0 .. count)} to {@code target} (8 bytes each), as
     * {@link #writeInts} does: a table of items for a kernel that reads many of them, such as every item of a tile.
     *
     * @param target device memory of this GPU with room for {@code count} addresses from offset 0
     * @param buffers buffers of this GPU (cached items, slices), from index 0
     * @param count how many, from 0 to {@code buffers.length}
     * @throws IllegalArgumentException when {@code count} exceeds the array or the buffer, or a buffer is another
     *         device's
     */
    void writeAddresses(DeviceBuffer target, DeviceBuffer[] buffers, int count);

    /**
     * The GPU's number of streaming multiprocessors, for sizing grids.
     *
     * @return the multiprocessor count, at least 1
     */
    int multiprocessors();
}
