package io.rocket.cache;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A request for one or more items of a {@link SlotCache}, all pinned together or not at all. Owned by one job and
 * reused for its next items, so a pair job allocates nothing here.
 *
 * <p>Lifecycle: {@link #items} are set, the cache grants the request (at once or when slots free up) and calls
 * {@link #onGranted()}, where the owner starts loading every item whose {@link #grant(int)} is {@link Grant#LOAD}.
 * When every item is readable or failed, {@link #onSettled()} is called exactly once, on whichever thread settled
 * the last item. The owner then reads the slots and finally calls {@link SlotCache#release(CacheRequest)}.
 */
public abstract class CacheRequest {
    private final int[] items;
    private final int[] slots;
    private final Grant[] grants;
    private final Throwable[] errors;
    private final AtomicInteger pending = new AtomicInteger();
    private int count;

    protected CacheRequest(int capacity) {
        items = new int[capacity];
        slots = new int[capacity];
        grants = new Grant[capacity];
        errors = new Throwable[capacity];
    }

    /** Asks for one item. */
    public final void items(int item) {
        items[0] = item;
        count = 1;
    }

    /** Asks for two distinct items. */
    public final void items(int first, int second) {
        if (first == second) {
            throw new IllegalArgumentException("a request names item " + first + " twice");
        }
        items[0] = first;
        items[1] = second;
        count = 2;
    }

    /** Asks for no items yet: {@link #add} them one by one. */
    protected final void clearItems() {
        count = 0;
    }

    /**
     * Adds an item to ask for, all pinned together: for a task that runs many pairs on one pin of each item. An item
     * may be added more than once; each occurrence is a pin of its own, released with the others.
     *
     * @param item the item
     * @return its position in the request
     * @throws ArrayIndexOutOfBoundsException when the request already holds as many items as its capacity
     */
    protected final int add(int item) {
        items[count] = item;
        return count++;
    }

    public final int count() {
        return count;
    }

    public final int item(int position) {
        return items[position];
    }

    /** The slot granted for the item at {@code position}. */
    public final int slot(int position) {
        return slots[position];
    }

    public final Grant grant(int position) {
        return grants[position];
    }

    /** The error of a failed item once settled, else null. */
    public final Throwable error(int position) {
        return errors[position];
    }

    /** Whether any item failed (valid once settled). */
    public final boolean anyFailed() {
        for (int p = 0; p < count; p++) {
            if (errors[p] != null) {
                return true;
            }
        }
        return false;
    }

    /** Called once the request's slots are pinned: start the loads this request owns. */
    protected abstract void onGranted();

    /** Called once every item is readable or failed. */
    protected abstract void onSettled();

    // --- called by SlotCache ---------------------------------------------------------------------------------

    final void assign(int position, int slot, Grant grant, Throwable error) {
        slots[position] = slot;
        grants[position] = grant;
        errors[position] = error;
    }

    /** Arms the settle counter: one per item still to come plus one for the grant callback itself. */
    final void arm(int outstanding) {
        pending.set(outstanding + 1);
    }

    final void settle(int position, Throwable error) {
        errors[position] = error;
        settleOne();
    }

    final void settleOne() {
        if (pending.decrementAndGet() == 0) {
            onSettled();
        }
    }
}
