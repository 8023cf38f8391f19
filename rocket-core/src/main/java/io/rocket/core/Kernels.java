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
     * Compares every pair of a tile: the place for kernels that block their work, such as one matrix product or one
     * batched launch for all pairs of the tile instead of a launch per pair. The default calls {@link #compare} for
     * each pair, writing its result into the pair's slot; a pair whose compare throws fails alone.
     *
     * <p>On a device with overlapped steps (cuda) the launches only need to be queued on the kernel stream: the
     * runtime waits for them, then copies {@link Tile#results()} to the host in one copy. Every pair's result
     * length must be set before this method returns (it is known from the item sizes, as for {@link #compare}).
     *
     * @param tile the items and pairs, valid only during this call
     * @param context the device running the kernels, valid only during this call
     * @throws Exception when the whole tile cannot be compared; every pair not already {@link Tile#fail failed} is
     *         then reported as failed with it and the run goes on
     */
    default void compareTile(Tile<K> tile, KernelContext context) throws Exception {
        for (int p = 0; p < tile.pairs(); p++) {
            int a = tile.left(p);
            int b = tile.right(p);
            DeviceBuffer result = tile.result(p);
            try {
                result.length(compare(tile.key(a), tile.item(a), tile.key(b), tile.item(b), result, context));
            } catch (Exception e) {
                tile.fail(p, e);
            }
        }
    }

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
