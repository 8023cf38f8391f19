package io.rocket.cache;

import java.util.function.BooleanSupplier;

/**
 * The memory of a slot-count {@link SlotCache}: a buffer of the largest item's size per slot ({@link SlotBuffers}),
 * set once and kept for the cache's life. Room is counted in slots: a load takes the policy's victim.
 *
 * @param <B> the slot buffer type
 */
final class FixedSlotStorage<B> implements SlotStorage<B> {
    private final SlotBuffers<B> buffers;
    private final EvictionPolicy policy;

    FixedSlotStorage(SlotBuffers<B> buffers, EvictionPolicy policy) {
        this.buffers = buffers;
        this.policy = policy;
    }

    @Override
    public int slots() {
        return buffers.slots();
    }

    @Override
    public void init(BooleanSupplier evictOne) {
        // every slot starts evictable in the policy; no eviction by bytes
    }

    @Override
    public B buffer(int slot) {
        return buffers.get(slot);
    }

    @Override
    public long bytes(int slot) {
        return 0;
    }

    @Override
    public boolean fits(int missing, int hitsOnEvictable, long hitBytes) {
        return policy.evictable() - hitsOnEvictable >= missing;
    }

    @Override
    public int slotForLoad() {
        return policy.victim();
    }

    @Override
    public void pinned(int slot) {
    }

    @Override
    public void unpinned(int slot) {
    }

    @Override
    public void evicted(int slot) {
        throw new IllegalStateException("fixed slots are never evicted by bytes");
    }

    @Override
    public boolean refits() {
        return false;
    }

    @Override
    public B fitting(int slot) {
        return null;
    }

    @Override
    public void copyLoaded(int slot, B fitted) {
        throw new IllegalStateException("fixed slots keep the buffer an item was loaded into");
    }

    @Override
    public boolean finished(int slot, boolean published, B fitted) {
        return false;
    }

    @Override
    public int maximalItems() {
        return slots();
    }

    @Override
    public int capacityItems() {
        return slots();
    }

    @Override
    public boolean emptyApart() {
        return false;
    }

    @Override
    public void checkInvariants(String name, SlotState[] states, int[] refs) {
    }
}
