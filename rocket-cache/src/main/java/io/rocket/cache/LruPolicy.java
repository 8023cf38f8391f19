package io.rocket.cache;

import java.util.function.IntUnaryOperator;

/**
 * Least-recently-used eviction among unreferenced slots: an intrusive doubly linked list over slot indices, oldest
 * release at the head. Empty slots start at the head so they are used before anything is evicted. O(1), no
 * allocation after {@link #init}.
 */
public final class LruPolicy implements EvictionPolicy {
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
    public int victim() {
        int slot = head;
        if (slot >= 0) {
            pinned(slot);
        }
        return slot;
    }

    /** The oldest evictable slot of the lowest keep level: a walk from the head past the slots kept longer. */
    @Override
    public int victim(IntUnaryOperator keep) {
        int best = -1;
        int bestLevel = Integer.MAX_VALUE;
        for (int slot = head; slot >= 0 && bestLevel > 0; slot = next[slot]) {
            int level = keep.applyAsInt(slot);
            if (level < bestLevel) {
                best = slot;
                bestLevel = level;
            }
        }
        if (best >= 0) {
            pinned(best);
        }
        return best;
    }

    @Override
    public int evictable() {
        return size;
    }

    /** Whether the slot is in the evictable list (for invariant checks). */
    boolean isEvictable(int slot) {
        return linked[slot];
    }
}
