package io.rocket.cache;

import java.util.function.IntUnaryOperator;

/**
 * Least-recently-used eviction among unreferenced slots: an intrusive doubly linked list over slot indices, oldest
 * release at the head. Empty slots start at the head so they are used before anything is evicted. O(1), no
 * allocation after {@link #init}; with items kept ({@link #keep}) a victim is the oldest slot not kept, found by a
 * walk from the head, and the oldest kept slot only when every evictable slot is kept.
 */
public final class LruPolicy implements EvictionPolicy {
    private final KeepSet kept = new KeepSet();
    private int[] prev;
    private int[] next;
    private boolean[] linked;
    private int head = -1;
    private int tail = -1;
    private int size;

    @Override
    public void init(int slots) {
        prev = new int[slots];
        next = new int[slots];
        linked = new boolean[slots];
        head = tail = -1;
        size = 0;
        kept.init(slots);
        for (int s = 0; s < slots; s++) {
            unpinned(s);
        }
    }

    @Override
    public void unpinned(int slot) {
        link(slot, false);
    }

    @Override
    public void unpinnedCold(int slot) {
        link(slot, true);
    }

    /** Makes the slot evictable: next to go ({@code first}) or last to go. */
    private void link(int slot, boolean first) {
        if (linked[slot]) {
            throw new IllegalStateException("slot " + slot + " already evictable");
        }
        if (first) {
            prev[slot] = -1;
            next[slot] = head;
            if (head >= 0) {
                prev[head] = slot;
            } else {
                tail = slot;
            }
            head = slot;
        } else {
            prev[slot] = tail;
            next[slot] = -1;
            if (tail >= 0) {
                next[tail] = slot;
            } else {
                head = slot;
            }
            tail = slot;
        }
        linked[slot] = true;
        size++;
    }

    @Override
    public void pinned(int slot) {
        if (!linked[slot]) {
            throw new IllegalStateException("slot " + slot + " not evictable");
        }
        int p = prev[slot];
        int n = next[slot];
        if (p >= 0) {
            next[p] = n;
        } else {
            head = n;
        }
        if (n >= 0) {
            prev[n] = p;
        } else {
            tail = p;
        }
        linked[slot] = false;
        size--;
    }

    @Override
    public void assigned(int slot, int item) {
        kept.assigned(slot, item);
    }

    @Override
    public void keep(int[] items, IntUnaryOperator slotOf) {
        kept.keep(items, slotOf);
    }

    @Override
    public int victim() {
        int slot = head;
        if (!kept.isEmpty()) {
            // The walk stops at the first slot not kept; with none such, the oldest (the head) goes.
            for (int s = head; s >= 0; s = next[s]) {
                if (!kept.isKept(s)) {
                    slot = s;
                    break;
                }
            }
        }
        if (slot >= 0) {
            pinned(slot);
        }
        return slot;
    }

    @Override
    public int evictable() {
        return size;
    }

    @Override
    public boolean isEvictable(int slot) {
        return linked[slot];
    }
}
