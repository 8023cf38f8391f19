package io.rocket.cache;

import java.util.function.IntUnaryOperator;

/**
 * Decides which unreferenced slot a cache reuses, including which slots to evict last because a schedule asked to
 * keep their items ({@link #keep}). Policies see slot indices and are told which item each slot holds; the
 * {@link SlotCache} owns the slots and their states and calls these methods under its lock, so policies need no
 * synchronisation.
 */
public interface EvictionPolicy {

    /** Sets up for {@code slots} slots, all unreferenced (and empty), keeping nothing. */
    void init(int slots);

    /** The slot has just lost its last reference and may be evicted. */
    void unpinned(int slot);

    /** The slot has just lost its last reference and is to be evicted before the others. */
    void unpinnedCold(int slot);

    /** The slot has just gained a reference and must not be evicted. */
    void pinned(int slot);

    /** The slot now holds {@code item} (it was empty, or its item was just evicted). */
    void assigned(int slot, int item);

    /**
     * Keeps {@code items} (replacing those kept before): while other slots are evictable, {@link #victim} takes
     * those; among kept slots the policy's own order decides. {@code slotOf} gives the slot an item is in now, or -1;
     * items not in the cache yet are kept from when they are {@link #assigned}.
     */
    void keep(int[] items, IntUnaryOperator slotOf);

    /** Removes and returns the slot to evict, or -1 when every slot is referenced. */
    int victim();

    /** How many slots are evictable. */
    int evictable();

    /** Whether the slot is evictable now (for the cache's invariant checks). */
    boolean isEvictable(int slot);
}
