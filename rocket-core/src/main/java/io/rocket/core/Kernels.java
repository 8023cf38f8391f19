package io.rocket.core;

/**
 * The device-side steps of an {@link Application} for one kind of device: preprocess an item and compare two items.
 *
 * <p>Both run on the device's kernel thread, one at a time per device. On the {@code cpu} device the buffers are
 * readable through {@link DeviceBuffer#byteBuffer()}; on the {@code sim} device they hold no data and kernels only
 * model their time with {@link KernelContext#occupy(long)}.
 *
 * @param <K> the application's key type
 */
public interface Kernels<K> {

    /**
     * Turns a parsed item ({@code input}, {@link DeviceBuffer#length()} bytes) into the cached item.
     *
     * @return the number of bytes of {@code output} the item uses (at most the application's max item bytes)
     */
    long preprocess(K key, DeviceBuffer input, DeviceBuffer output, KernelContext context) throws Exception;

    /**
     * Compares two cached items into {@code result}.
     *
     * @return the number of bytes of {@code result} written (at most the application's max result bytes)
     */
    long compare(K leftKey, DeviceBuffer left, K rightKey, DeviceBuffer right, DeviceBuffer result,
                 KernelContext context) throws Exception;

    /**
     * Called once on the kernel thread as its first task, while the run's first items are still being read and
     * parsed: the place to build large scratch memory or plans that {@link #preprocess} and {@link #compare} need,
     * so that building them neither holds up the run's set-up (the first item would be read only after it) nor counts
     * as a step. Kernels that build nothing leave it as it is. Should it fail, the error is logged and the steps
     * find out for themselves (they must not assume that this ran).
     */
    default void prepare(KernelContext context) throws Exception {
    }
}
