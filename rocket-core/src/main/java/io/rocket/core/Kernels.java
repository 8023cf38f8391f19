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
     * @param key the item's key, never null
     * @param input the parsed item on the device, readied for reading (limit at its length); owned by the runtime
     *        and reused once this method returns
     * @param output the cache slot to fill, {@link Application#maxItemBytes()} bytes of capacity, readied for writing
     * @param context the device running the kernel, valid only during this call
     * @return the number of bytes of {@code output} the item uses (at most the application's max item bytes)
     * @throws Exception when the item cannot be preprocessed; the item fails (every pair with it is reported as
     *         failed) and the run goes on
     */
    long preprocess(K key, DeviceBuffer input, DeviceBuffer output, KernelContext context) throws Exception;

    /**
     * Compares two cached items into {@code result}.
     *
     * @param leftKey the key of the pair's first item, never null
     * @param left the first item, as {@link #preprocess} left it, readied for reading; must not be modified
     * @param rightKey the key of the pair's second item, never null
     * @param right the second item, readied for reading; must not be modified
     * @param result the buffer to fill, {@link Application#maxResultBytes()} bytes of capacity, readied for writing
     * @param context the device running the kernel, valid only during this call
     * @return the number of bytes of {@code result} written (at most the application's max result bytes)
     * @throws Exception when the pair cannot be compared; the pair is reported as failed and the run goes on
     */
    long compare(K leftKey, DeviceBuffer left, K rightKey, DeviceBuffer right, DeviceBuffer result,
                 KernelContext context) throws Exception;

    /**
     * Called once on the kernel thread as its first task, while the run's first items are still being read and
     * parsed: the place to build large scratch memory or plans that {@link #preprocess} and {@link #compare} need,
     * so that building them neither holds up the run's set-up (the first item would be read only after it) nor counts
     * as a step. Kernels that build nothing leave it as it is. Should it fail, the error is logged and the steps
     * find out for themselves (they must not assume that this ran).
     *
     * @param context the device the kernels will run on, valid only during this call
     * @throws Exception on any failure; it is logged and the run goes on
     */
    default void prepare(KernelContext context) throws Exception {
    }
}
