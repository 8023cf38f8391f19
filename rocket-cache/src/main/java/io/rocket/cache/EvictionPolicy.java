package io.rocket.cache;

import java.util.function.IntUnaryOperator;

/**
 * Decides which unreferenced slot a cache reuses. Policies see only slot indices; the {@link SlotCache} owns the
 * slots and their states and calls these methods under its lock, so policies need no synchronisation.
 */
public interface EvictionPolicy {

    /** Sets up for {@code slots} slots, all unreferenced (and empty). */
    void init(int slots);

    /** The slot has just lost its last reference and may be evicted. */
    void unpinned(int slot);

    /** The slot has just lost its last reference and is to be evicted before the others. */
    void unpinnedCold(int slot);

    /** The slot has just gained a reference and must not be evicted. */
    void pinned(int slot);

    /** Removes and returns the slot to evict, or -1 when every slot is referenced. */
    int victim();

    /**
     * As {@link #victim()}, preferring slots of a lower {@code keep} level (0: evict freely; higher: keep longer)
     * while any is evictable; the policy's order decides among slots of one level. The default ignores the levels.
     */
    default int victim(IntUnaryOperator keep) {
        return victim();
    }

    /** How many slots are evictable. */
    int evictable();
}
