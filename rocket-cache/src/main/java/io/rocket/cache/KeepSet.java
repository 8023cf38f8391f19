package io.rocket.cache;

import java.util.Arrays;
import java.util.BitSet;
import java.util.function.IntUnaryOperator;

/**
 * The items a schedule asked a cache to keep ({@link SlotCache#keep}) and which slots hold them: the state an
 * {@link EvictionPolicy} consults to evict other slots first. It is told each slot's new item as the cache assigns
 * it, so asking whether a slot is kept is one array read on the eviction path. Not thread-safe: the cache calls it
 * under its lock, as it calls the policy.
 */
public final class KeepSet {
    private final BitSet items = new BitSet();
    private boolean[] slots = new boolean[0];
    /** Whether any item is kept: the common case, none, then costs a policy nothing. */
    private boolean any;

    /** Sets up for {@code slots} slots, keeping nothing. */
    public void init(int slots) {
        this.slots = new boolean[slots];
        items.clear();
        any = false;
    }

    /**
     * Keeps {@code kept} (replacing the items kept before); {@code slotOf} gives the slot an item is in now, or -1.
     * Items not in the cache yet are kept from when they are {@link #assigned}.
     */
    public void keep(int[] kept, IntUnaryOperator slotOf) {
        Arrays.fill(slots, false);
        items.clear();
        for (int item : kept) {
            items.set(item);
            int slot = slotOf.applyAsInt(item);
            if (slot >= 0) {
                slots[slot] = true;
            }
        }
        any = kept.length > 0;
    }

    /** The slot now holds {@code item}. */
    public void assigned(int slot, int item) {
        slots[slot] = any && items.get(item);
    }

    /** Whether any item is kept. */
    public boolean isEmpty() {
        return !any;
    }

    /** Whether the slot holds a kept item. */
    public boolean isKept(int slot) {
        return slots[slot];
    }
}
