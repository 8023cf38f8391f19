package io.rocket.cache;

import java.util.function.BooleanSupplier;

/**
 * How a {@link SlotCache}'s slots get their memory, and so what room the cache has: {@link FixedSlotStorage fixed
 * slots} of the largest item's size, where room is counted in evictable slots, or a {@link BudgetSlotStorage byte
 * budget}, where room is counted in bytes and a published item moves into a buffer of its own size. The cache keeps
 * the slots' items, states and references and calls every method but {@link #buffer} under its lock; implementations
 * are not thread-safe otherwise.
 *
 * @param <B> the slot buffer type
 */
sealed interface SlotStorage<B> permits FixedSlotStorage, BudgetSlotStorage {

    /** The number of slots. */
    int slots();

    /**
     * Called once, after the policy was set up for {@link #slots} slots: {@code evictOne} evicts the least recently
     * used unreferenced slot and empties it (telling {@link #evicted}), false when none is evictable.
     */
    void init(BooleanSupplier evictOne);

    /**
     * The slot's buffer; see {@link SlotCache#buffer}. Called without the lock. Null only for a loading slot whose
     * buffer is taken when its loader first asks ({@link #loadBuffer}).
     */
    B buffer(int slot);

    /**
     * The buffer of a loading slot that {@link #buffer} has none for yet, taken now within the room the load
     * reserved. Fixed slots always have theirs.
     */
    default B loadBuffer(int slot) {
        return buffer(slot);
    }

    /** The bytes the slot's buffer takes against the cache's room: 0 for fixed slots. */
    long bytes(int slot);

    /**
     * Whether a request that loads {@code missing} items fits once every unreferenced slot but the ones it hits is
     * evicted: {@code hitsOnEvictable} unreferenced slots it hits, taking {@code hitBytes}.
     */
    boolean fits(int missing, int hitsOnEvictable, long hitBytes);

    /**
     * A slot for a granted load (room was checked by {@link #fits}), its room reserved for the item to be written. It
     * may still hold an item (the victim of fixed slots), which the cache evicts.
     */
    int slotForLoad();

    /** The slot just gained its first reference. */
    void pinned(int slot);

    /** The slot just lost its last reference. */
    void unpinned(int slot);

    /** The slot was evicted by {@code evictOne} (see {@link #init}); its item is already unmapped. */
    void evicted(int slot);

    /**
     * Whether a published item moves into a buffer that fits it ({@link #fitting}, {@link #copyLoaded}), which
     * takes the cache's lock once more before publishing.
     */
    boolean refits();

    /**
     * A buffer of the published slot's item's own size, or null when the item stays where it was loaded; only
     * where {@link #refits}.
     */
    B fitting(int slot);

    /** Copies the loaded item of {@code slot} into {@code fitted}; outside the lock, on the loader's thread. */
    void copyLoaded(int slot, B fitted);

    /**
     * The load of {@code slot} ended, published or failed, {@code fitted} the buffer from {@link #fitting} or null;
     * true when that freed room a blocked request may fit in.
     */
    boolean finished(int slot, boolean published, B fitted);

    /** The items the cache holds at once were every item of the largest size: its slots, or the budget's worth. */
    int maximalItems();

    /** The items the cache reports as its capacity: its slots, or the most items a byte budget held at once. */
    int capacityItems();

    /** Whether empty slots wait apart from the policy (and so are not evictable), see {@link SlotInvariants}. */
    boolean emptyApart();

    /** Throws where this memory disagrees with the slots' states and references (under the lock). */
    void checkInvariants(String name, SlotState[] states, int[] refs);
}
