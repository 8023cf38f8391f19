package io.rocket.cache;

import java.util.function.BooleanSupplier;

/**
 * The memory of a byte-budget {@link SlotCache} (see {@link ByteBudget}): one slot per item, the slots that hold no
 * item on a stack apart from the policy (so eviction by bytes only ever meets slots that hold some), and the bytes of
 * the unreferenced slots, which is the room evicting everything evictable would free. A load is granted when the
 * budget has room for its maximal buffers; its item moves into a buffer of its own size class when published.
 *
 * @param <B> the slot buffer type
 */
final class BudgetSlotStorage<B> implements SlotStorage<B> {
    private final ByteBudget<B> budget;
    private final EvictionPolicy policy;
    /** The slots that hold no item (a stack of slot indices); they are not in the policy. */
    private final int[] empty;
    private int emptyCount;
    /** Bytes of the unreferenced slots: what evicting everything evictable would free. */
    private long evictableBytes;
    /** The most items held at once: the capacity in items the run's sizes gave. */
    private int peakItems;
    private BooleanSupplier evictOne;

    BudgetSlotStorage(SlotMemory<B> memory, long maxItemBytes, long budgetBytes, int slots, EvictionPolicy policy) {
        this.budget = new ByteBudget<>(memory, maxItemBytes, budgetBytes, slots);
        this.policy = policy;
        this.empty = new int[slots];
    }

    @Override
    public int slots() {
        return empty.length;
    }

    @Override
    public void init(BooleanSupplier evictOne) {
        this.evictOne = evictOne;
        for (int s = empty.length - 1; s >= 0; s--) {
            policy.pinned(s);
            empty[emptyCount++] = s;
        }
    }

    @Override
    public B buffer(int slot) {
        return budget.buffer(slot);
    }

    @Override
    public B loadBuffer(int slot) {
        return budget.loadBuffer(slot);
    }

    @Override
    public long bytes(int slot) {
        return budget.bytes(slot);
    }

    @Override
    public boolean fits(int missing, int hitsOnEvictable, long hitBytes) {
        return missing == 0 || budget.fits(missing, evictableBytes - hitBytes);
    }

    @Override
    public int slotForLoad() {
        int slot = empty[--emptyCount];
        budget.startLoad(slot, evictOne);
        return slot;
    }

    @Override
    public void pinned(int slot) {
        evictableBytes -= budget.bytes(slot);
    }

    @Override
    public void unpinned(int slot) {
        evictableBytes += budget.bytes(slot);
    }

    @Override
    public void evicted(int slot) {
        evictableBytes -= budget.bytes(slot);
        budget.release(slot);
        empty[emptyCount++] = slot;
    }

    @Override
    public boolean refits() {
        return true;
    }

    @Override
    public B fitting(int slot) {
        return budget.fitting(slot, evictOne);
    }

    @Override
    public void copyLoaded(int slot, B fitted) {
        budget.copyLoaded(slot, fitted);
    }

    @Override
    public boolean finished(int slot, boolean published, B fitted) {
        if (fitted != null) {
            budget.install(slot, fitted);
        } else if (!published) {
            budget.release(slot); // a failed load holds no buffer; a maximal item stays where it was loaded
        }
        peakItems = Math.max(peakItems, empty.length - emptyCount);
        // The loading buffer's bytes are free again: a request waiting for room may fit now.
        return true;
    }

    @Override
    public int maximalItems() {
        return (int) Math.min(Integer.MAX_VALUE, budget.budget() / budget.loadBytes());
    }

    @Override
    public int capacityItems() {
        return peakItems;
    }

    @Override
    public boolean emptyApart() {
        return true;
    }

    @Override
    public void checkInvariants(String name, SlotState[] states, int[] refs) {
        BudgetInvariants.check(name, budget, states, refs, evictableBytes, emptyCount);
    }
}
