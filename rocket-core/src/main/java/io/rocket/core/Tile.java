package io.rocket.core;

/**
 * Many pairs compared in one call: a set of cached items and the pairs among them that belong to the run, with one
 * result slot per pair. The runtime builds a tile from a leaf of the run's pairs (rows against columns, sharing the
 * column items), pins all its items in the device's L1 at once, calls {@link Kernels#compareTile} once, and brings
 * every result back in one copy: on a GPU that is one set of launches and one device-to-host copy for hundreds of
 * pairs instead of per pair.
 *
 * <p>Items are numbered {@code 0 .. items()-1} within the tile and pairs {@code 0 .. pairs()-1}; pair p compares item
 * {@link #left(int) left(p)} with item {@link #right(int) right(p)}, in that orientation. The result slots are
 * consecutive pieces of one device buffer, {@link #resultStride()} bytes apart ({@link Application#maxResultBytes()}),
 * so a kernel may write all of them at once from {@link #results()}. A tile is valid only during the call it is
 * passed to; it is reused for the next tile, so keep no reference to it or its buffers.
 *
 * @param <K> the application's key type
 */
public interface Tile<K> {

    /**
     * Distinct items in the tile.
     *
     * @return at least 1
     */
    int items();

    /**
     * The key of a tile item.
     *
     * @param item the tile item, {@code 0 .. items()-1}
     * @return its key, never null
     */
    K key(int item);

    /**
     * A tile item as {@link Kernels#preprocess} left it, readied for reading (position 0, limit at its length); must
     * not be modified.
     *
     * @param item the tile item, {@code 0 .. items()-1}
     * @return its cached buffer, valid only during the call the tile was passed to
     */
    DeviceBuffer item(int item);

    /**
     * Pairs in the tile.
     *
     * @return at least 1
     */
    int pairs();

    /**
     * The first element of a pair.
     *
     * @param pair the pair, {@code 0 .. pairs()-1}
     * @return its tile item
     */
    int left(int pair);

    /**
     * The second element of a pair.
     *
     * @param pair the pair, {@code 0 .. pairs()-1}
     * @return its tile item
     */
    int right(int pair);

    /**
     * A pair's result slot: {@link Application#maxResultBytes()} bytes of capacity, readied for writing when the tile
     * was handed over (calling this again does not reset it). Set its {@link DeviceBuffer#length(long) length} to the
     * bytes written, as {@link Kernels#compare} returns them.
     *
     * @param pair the pair, {@code 0 .. pairs()-1}
     * @return its slot, a piece of {@link #results()}
     */
    DeviceBuffer result(int pair);

    /**
     * All result slots as one buffer, for kernels that write every pair's result at once.
     *
     * @return the buffer; pair p's result starts at byte {@code p * resultStride()}
     */
    DeviceBuffer results();

    /**
     * Bytes between two pairs' result slots in {@link #results()}.
     *
     * @return the application's max result bytes
     */
    long resultStride();

    /**
     * Marks a pair as failed; the other pairs of the tile go on. A compareTile that throws fails every pair of the
     * tile instead.
     *
     * @param pair the pair, {@code 0 .. pairs()-1}
     * @param cause what went wrong, reported with the pair's items
     */
    void fail(int pair, Throwable cause);
}
