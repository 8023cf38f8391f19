package io.rocket.cache;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * Which item each slot of a {@link SlotCache} holds, in which {@link SlotState}, with how many references and, for a
 * failed load, which error: the state transitions of the cache's slots (pin, unpin, start a load, finish it, evict),
 * kept in step with the {@link EvictionPolicy} and the {@link SlotStorage}. The cache's grant protocol (who waits,
 * who is told what) stays with the cache. Not thread-safe: the cache calls every method under its lock.
 */
final class SlotTable {
    private final String name;
    private final EvictionPolicy policy;
    private final SlotStorage<?> storage;
    private final int[] slotOf;
    private final int[] itemOf;
    private final SlotState[] states;
    private final int[] refs;
    private final Throwable[] failures;
    private long evictions;
    /** Told each item the cache evicts; see {@link SlotCache#onEvict}. */
    private volatile IntConsumer evicted = item -> { };

    /** Slots for {@code items} items (keys 0..items-1), as many as {@code storage} has, all FREE. */
    SlotTable(String name, int items, EvictionPolicy policy, SlotStorage<?> storage) {
        int slots = storage.slots();
        this.name = name;
        this.policy = policy;
        this.storage = storage;
        this.slotOf = new int[items];
        Arrays.fill(slotOf, -1);
        this.itemOf = new int[slots];
        Arrays.fill(itemOf, -1);
        this.states = new SlotState[slots];
        Arrays.fill(states, SlotState.FREE);
        this.refs = new int[slots];
        this.failures = new Throwable[slots];
    }

    int slots() {
        return itemOf.length;
    }

    /** The slot holding {@code item}, or -1. */
    int slotOf(int item) {
        return slotOf[item];
    }

    SlotState state(int slot) {
        return states[slot];
    }

    int refs(int slot) {
        return refs[slot];
    }

    /** The error of a failed (INVALID) slot's load. */
    Throwable failure(int slot) {
        return failures[slot];
    }

    long evictions() {
        return evictions;
    }

    void onEvict(IntConsumer listener) {
        this.evicted = listener;
    }

    /** Adds a reference; the slot's first one takes it out of eviction. */
    void pin(int slot) {
        if (refs[slot]++ == 0) {
            policy.pinned(slot);
            storage.pinned(slot);
        }
    }

    /** Drops a reference; the slot's last one makes it evictable, first of all when {@code cold}. */
    void unpin(int slot, boolean cold) {
        if (states[slot] == SlotState.WRITE) {
            throw new IllegalStateException(name + ": release of slot " + slot + " before its load ended");
        }
        if (--refs[slot] == 0) {
            storage.unpinned(slot);
            if (cold) {
                policy.unpinnedCold(slot);
            } else {
                policy.unpinned(slot);
            }
        } else if (refs[slot] < 0) {
            throw new IllegalStateException(name + ": slot " + slot + " released more often than pinned");
        }
    }

    /**
     * Puts {@code item} (not in the cache) into a slot from the storage, WRITE with one reference (its loader's);
     * room was checked by {@link SlotStorage#fits}.
     *
     * @return the slot
     */
    int startLoad(int item) {
        int slot = storage.slotForLoad();
        unmap(slot); // a victim's item leaves; an empty slot holds none
        itemOf[slot] = item;
        slotOf[item] = slot;
        policy.assigned(slot, item);
        states[slot] = SlotState.WRITE;
        failures[slot] = null;
        refs[slot] = 1;
        return slot;
    }

    /** The load of a WRITE slot ended: READ, or INVALID with {@code error}. */
    void finish(int slot, SlotState state, Throwable error) {
        checkWrite(slot);
        states[slot] = state;
        failures[slot] = error;
    }

    void checkWrite(int slot) {
        if (states[slot] != SlotState.WRITE) {
            throw new IllegalStateException(name + ": slot " + slot + " is " + states[slot] + ", not WRITE");
        }
    }

    /** The slot's item, if any, leaves the cache. */
    private void unmap(int slot) {
        int old = itemOf[slot];
        if (old >= 0) {
            slotOf[old] = -1;
            itemOf[slot] = -1;
            evictions++;
            evicted.accept(old);
        }
    }

    /**
     * Byte budget: evicts the least recently used unreferenced slot, its buffer freed and the slot emptied; false
     * when no slot is evictable.
     */
    boolean evictOne() {
        int slot = policy.victim();
        if (slot < 0) {
            return false;
        }
        unmap(slot);
        storage.evicted(slot);
        states[slot] = SlotState.FREE;
        failures[slot] = null;
        return true;
    }

    /** Marks the item as just used where it is held unreferenced and readable, as if acquired and released. */
    void touch(int item) {
        int slot = item < 0 ? -1 : slotOf[item];
        if (slot >= 0 && refs[slot] == 0 && states[slot] == SlotState.READ) {
            policy.pinned(slot);
            policy.unpinned(slot);
        }
    }

    /** See {@link SlotCache#checkInvariants}; {@code blocked} requests wait for room. */
    void checkInvariants(SlotWaiters waiters, int blocked, boolean quiescent) {
        SlotInvariants.check(name, policy, slotOf, itemOf, states, refs, waiters, blocked, quiescent,
                storage.emptyApart());
        storage.checkInvariants(name, states, refs);
    }
}
