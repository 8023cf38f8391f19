package io.rocket.cache;

import io.rocket.core.summary.CacheStats;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

/**
 * A fixed number of fixed-size slots holding loaded items: the device cache (L1, one per device) and the host
 * cache (L2, one per node) are both instances. Storage and policy are separate: this class runs the grant protocol
 * (who is granted, who waits, who is told what); a {@link SlotTable} keeps the slots' items, states and references;
 * an {@link EvictionPolicy} picks victims among unreferenced slots, and owns which items to keep ({@link #keep}); a
 * {@link SlotStorage} gives the slots their memory, fixed slots with buffers made all at once or on first use
 * ({@link SlotBuffers}) or a byte budget ({@link ByteBudget}); {@link BlockedRequests} queues the requests that wait
 * for room.
 *
 * <p><b>Concurrency.</b> One lock guards every field below, the table and the storage, except the slots' buffers,
 * which a slot's loader and readers read once the cache granted them the slot. Callbacks into {@link CacheRequest}s
 * are made after the lock is released, so a callback may call back into the cache. Slot
 * states follow {@link SlotState}; a WRITE slot's data is written only by the request that was granted
 * {@link Grant#LOAD} for it, and a READ slot's data is only read.
 *
 * <p><b>No deadlock.</b> A request pins all its items at once or waits without holding anything, in FIFO order
 * (no starvation). Pinned slots are released by jobs that need nothing more from this cache, so as long as the
 * cache has at least as many slots as a request has items, every request is eventually granted.
 *
 * <p><b>Failures.</b> A failed load turns its slot INVALID and settles every waiter with the error; later
 * requests for the item are granted {@link Grant#FAILED} while the slot holds it.
 *
 * @param <B> the slot buffer type
 */
public final class SlotCache<B> {
    private final String name;
    private final long slotBytes;
    /** Fixed slots or a byte budget: the slots' buffers and the cache's room. */
    private final SlotStorage<B> storage;
    private final ReentrantLock lock = new ReentrantLock();
    private final EvictionPolicy policy;
    private final SlotTable table;
    private final SlotWaiters waiters;
    private final BlockedRequests blocked;
    private final CacheCounters counters;

    /**
     * @param name      for logs and errors
     * @param items     number of distinct items (keys are 0..items-1)
     * @param slots     number of slots (at least 2, so a pair always fits)
     * @param slotBytes bytes per slot
     * @param allocator makes the buffer of slot k
     * @param policy    eviction policy
     */
    public SlotCache(String name, int items, int slots, long slotBytes, IntFunction<B> allocator,
                     EvictionPolicy policy) {
        this(name, items, slots, slotBytes, allocator, policy, false);
    }

    /**
     * As above; with {@code onFirstUse} a slot's buffer is allocated when {@link #buffer} is first called for it
     * (by whichever thread calls it) instead of here.
     */
    public SlotCache(String name, int items, int slots, long slotBytes, IntFunction<B> allocator,
                     EvictionPolicy policy, boolean onFirstUse) {
        this(name, items, slotBytes, policy,
                new FixedSlotStorage<>(new SlotBuffers<>(atLeastTwo(name, slots), allocator, onFirstUse), policy));
    }

    /**
     * A cache whose capacity is a byte budget: each item takes the bytes of the size class its actual length needs
     * (see {@link ByteBudget}), {@code maxItemBytes} bounding one item only; eviction stays least recently used. A
     * loader writes into a buffer of {@code maxItemBytes} and records the length it wrote on it; {@link #publish}
     * moves the item into a buffer that fits it.
     *
     * @param name         for logs and errors
     * @param items        number of distinct items (keys are 0..items-1); the cache can hold them all
     * @param budgetBytes  the bytes the cache's buffers may take, at least twice {@code maxItemBytes}
     * @param maxItemBytes the largest item
     * @param memory       makes, measures and copies buffers
     * @param policy       eviction policy
     */
    public SlotCache(String name, int items, long budgetBytes, long maxItemBytes, SlotMemory<B> memory,
                     EvictionPolicy policy) {
        this(name, items, maxItemBytes, policy,
                new BudgetSlotStorage<>(memory, maxItemBytes, budgetBytes, Math.max(2, items), policy));
    }

    private SlotCache(String name, int items, long slotBytes, EvictionPolicy policy, SlotStorage<B> storage) {
        int slots = storage.slots();
        this.name = name;
        this.slotBytes = slotBytes;
        this.policy = policy;
        this.storage = storage;
        this.table = new SlotTable(name, items, policy, storage);
        this.counters = new CacheCounters(items);
        this.waiters = new SlotWaiters(slots);
        this.blocked = new BlockedRequests(this::tryGrant);
        policy.init(slots);
        storage.init(table::evictOne);
    }

    private static int atLeastTwo(String name, int slots) {
        if (slots < 2) {
            throw new IllegalArgumentException(name + ": a cache needs at least 2 slots, got " + slots);
        }
        return slots;
    }

    public String name() {
        return name;
    }

    /**
     * The number of slots: the most items the cache can hold at once (for a byte-budget cache, every item; its bytes
     * decide how many it holds).
     *
     * @return the number of slots
     */
    public int slots() {
        return table.slots();
    }

    /**
     * The items the cache holds at once whatever their sizes: its slots, or for a byte-budget cache the budget in
     * items of the largest size. What may be pinned together without ever asking for more room than the cache has.
     *
     * @return at least 2
     */
    public int maximalItems() {
        return storage.maximalItems();
    }

    /**
     * The buffer of a slot; read or write it only as its state allows. For a cache that allocates on first use, the
     * first call for a slot allocates its buffer; in a byte-budget cache a loading slot gets its buffer when its
     * loader first asks for it, so call this when the write begins, not when the load is granted.
     */
    public B buffer(int slot) {
        B buffer = storage.buffer(slot);
        return buffer != null ? buffer : loadBuffer(slot);
    }

    private B loadBuffer(int slot) {
        lock.lock();
        try {
            table.checkWrite(slot);
            return storage.loadBuffer(slot);
        } finally {
            lock.unlock();
        }
    }

    /** Requests the request's items; it is granted now or later, see {@link CacheRequest}. */
    public void acquire(CacheRequest request) {
        if (request.count() > slots()) {
            throw new IllegalArgumentException(name + ": request for " + request.count() + " items exceeds "
                    + slots() + " slots");
        }
        boolean granted;
        lock.lock();
        try {
            granted = blocked.isEmpty() && tryGrant(request);
            if (!granted) {
                blocked.add(request);
            }
        } finally {
            lock.unlock();
        }
        if (granted) {
            request.onGranted();
            request.settleOne();
        }
    }

    /**
     * Pins the request's single item if this cache holds it or is loading it, without starting a load or counting
     * a hit: for serving the item to another node. Returns false (pinning nothing) when the item is absent or
     * failed. On true, {@link CacheRequest#onSettled()} follows once the item is readable — at once, or when its
     * loader publishes (or fails) it. Release as usual.
     */
    public boolean pinIfPresent(CacheRequest request) {
        if (request.count() != 1) {
            throw new IllegalArgumentException("pinIfPresent takes one item");
        }
        lock.lock();
        try {
            int slot = table.slotOf(request.item(0));
            if (slot < 0 || table.state(slot) == SlotState.INVALID || table.state(slot) == SlotState.FREE) {
                return false;
            }
            table.pin(slot);
            if (table.state(slot) == SlotState.READ) {
                request.assign(0, slot, Grant.READY, null);
                request.arm(0);
            } else {
                request.assign(0, slot, Grant.WAIT, null);
                waiters.add(slot, request, 0);
                request.arm(1);
            }
        } finally {
            lock.unlock();
        }
        request.settleOne();
        return true;
    }

    /** Under the lock: pins every item of the request, or nothing. */
    private boolean tryGrant(CacheRequest request) {
        int n = request.count();
        int missing = 0;
        int hitsOnEvictable = 0;
        long hitBytes = 0;
        for (int p = 0; p < n; p++) {
            int slot = table.slotOf(request.item(p));
            if (slot < 0) {
                missing++;
            } else if (table.refs(slot) == 0) {
                hitsOnEvictable++;
                hitBytes += storage.bytes(slot);
            }
        }
        if (!storage.fits(missing, hitsOnEvictable, hitBytes)) {
            return false;
        }
        int outstanding = 0;
        for (int p = 0; p < n; p++) {
            request.assign(p, -1, null, null);
        }
        // Hits first, so that evicting for a miss can never take a slot this same request is about to hit.
        for (int p = 0; p < n; p++) {
            int slot = table.slotOf(request.item(p));
            if (slot >= 0) {
                outstanding += pinFor(request, p, slot);
            }
        }
        for (int p = 0; p < n; p++) {
            if (request.grant(p) != null) {
                continue;
            }
            int item = request.item(p);
            int slot = table.slotOf(item);
            if (slot >= 0) { // an earlier occurrence in this request started its load
                outstanding += pinFor(request, p, slot);
            } else {
                counters.miss(item);
                slot = table.startLoad(item);
                request.assign(p, slot, Grant.LOAD, null);
                waiters.add(slot, request, p);
                outstanding++;
            }
        }
        request.arm(outstanding);
        return true;
    }

    /** Under the lock: pins the mapped {@code slot} for the request's position {@code p}; 1 when it must wait. */
    private int pinFor(CacheRequest request, int p, int slot) {
        counters.hit();
        table.pin(slot);
        switch (table.state(slot)) {
            case READ -> request.assign(p, slot, Grant.READY, null);
            case INVALID -> request.assign(p, slot, Grant.FAILED, table.failure(slot));
            case WRITE -> {
                counters.waited();
                request.assign(p, slot, Grant.WAIT, null);
                waiters.add(slot, request, p);
                return 1;
            }
            default -> throw new IllegalStateException(name + ": item " + request.item(p) + " mapped to free slot");
        }
        return 0;
    }

    /** The loader of a WRITE slot finished: the item becomes readable and its waiters settle. */
    public void publish(int slot) {
        finish(slot, SlotState.READ, null);
    }

    /** The loader of a WRITE slot failed: the slot becomes INVALID and its waiters settle with {@code error}. */
    public void fail(int slot, Throwable error) {
        finish(slot, SlotState.INVALID, error);
    }

    private void finish(int slot, SlotState state, Throwable error) {
        B fitted = null;
        if (state == SlotState.READ && storage.refits()) {
            // Into a buffer of the item's own size; the copy runs outside the lock, by the loader that owns the slot.
            lock.lock();
            try {
                table.checkWrite(slot);
                fitted = storage.fitting(slot);
            } finally {
                lock.unlock();
            }
            if (fitted != null) { // a maximal item stays where it was loaded
                storage.copyLoaded(slot, fitted);
            }
        }
        SlotWaiters.Taken taken;
        ArrayList<CacheRequest> granted = null;
        lock.lock();
        try {
            table.finish(slot, state, error);
            taken = waiters.take(slot);
            if (storage.finished(slot, state == SlotState.READ, fitted)) {
                granted = blocked.grant();
            }
        } finally {
            lock.unlock();
        }
        taken.settle(error);
        BlockedRequests.settle(granted);
    }

    /** Drops the request's references; slots without references become evictable and blocked requests retry. */
    public void release(CacheRequest request) {
        release(request, false, 0);
    }

    /**
     * As {@link #release}, and counts {@code moreHits} lookups the pins served besides the one each counted when
     * granted: for a task that ran many pairs on one pin of each item and counts two lookups a pair, as pair jobs do.
     */
    public void release(CacheRequest request, long moreHits) {
        release(request, false, moreHits);
    }

    /**
     * As {@link #release}, but a slot left without references becomes the first to evict: for a read on another's
     * behalf that says nothing about this node's own use of the item (the L3 serving a copy to another node, which
     * from then on is the one asked for it).
     */
    public void releaseCold(CacheRequest request) {
        release(request, true, 0);
    }

    private void release(CacheRequest request, boolean cold, long moreHits) {
        // Local, not shared scratch: a callback below may release (and so re-enter here) on this same thread.
        ArrayList<CacheRequest> granted = null;
        lock.lock();
        try {
            counters.hits(moreHits);
            for (int p = 0; p < request.count(); p++) {
                table.unpin(request.slot(p), cold);
            }
            granted = blocked.grant();
        } finally {
            lock.unlock();
        }
        BlockedRequests.settle(granted);
    }

    /**
     * As {@link #touch} for {@code items[0..n)}, under one lock.
     *
     * @param items the items just used elsewhere
     * @param n     how many of them
     */
    public void touchAll(int[] items, int n) {
        lock.lock();
        try {
            for (int k = 0; k < n; k++) {
                table.touch(items[k]);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Marks the items {@code a} and {@code b} (-1: none) as just used, where this cache holds them unreferenced, as if
     * they had been acquired and released: for an upper level that serves them from its own copy. Without it, an item
     * a device finds in its L1 ages in L2 however often it is used, L2 evicts it, and the next device that needs it
     * from L2 loads it again.
     */
    public void touch(int a, int b) {
        lock.lock();
        try {
            table.touch(a);
            table.touch(b);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Asks the cache to keep {@code items} (replacing the items asked for before): while it has other unreferenced
     * slots, it evicts those first. For a schedule that knows which items it needs again later while a stream of
     * others passes through (a cluster band's next rows, see the steal module's ClusterBands); the items need not be
     * in the cache yet, and are kept from when they arrive.
     */
    public void keep(int[] items) {
        lock.lock();
        try {
            policy.keep(items, table::slotOf);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Tells {@code listener} the index of every item this cache evicts, as it is evicted: under the cache's lock, so
     * the listener must be quick and must not call back into the cache (the L3 level queues a notice for the item's
     * contact, which keeps its list of who holds what true). Set before the cache is used.
     */
    public void onEvict(IntConsumer listener) {
        table.onEvict(listener);
    }

    /** Whether the item is in the cache now (any state). For tests and heuristics; may change at once. */
    public boolean contains(int item) {
        lock.lock();
        try {
            return table.slotOf(item) >= 0;
        } finally {
            lock.unlock();
        }
    }

    /** The items this cache was asked for at least once (a copy). */
    public BitSet requestedItems() {
        lock.lock();
        try {
            return counters.requested();
        } finally {
            lock.unlock();
        }
    }

    /** A consistent snapshot of the counters. */
    public CacheStats stats() {
        lock.lock();
        try {
            // A byte-budget cache reports the most items it held at once: its capacity in items for these sizes.
            return counters.stats(storage.capacityItems(), slotBytes, table.evictions());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Walks the internals and throws if they disagree: maps are inverse, references are non-negative, exactly the
     * unreferenced slots are evictable, and when {@code quiescent} nothing is referenced, loading or blocked.
     */
    public void checkInvariants(boolean quiescent) {
        lock.lock();
        try {
            table.checkInvariants(waiters, blocked.size(), quiescent);
        } finally {
            lock.unlock();
        }
    }
}
