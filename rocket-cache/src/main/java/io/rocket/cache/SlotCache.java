package io.rocket.cache;

import io.rocket.core.summary.CacheStats;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

/**
 * A fixed number of fixed-size slots holding loaded items: the device cache (L1, one per device) and the host
 * cache (L2, one per node) are both instances. Storage and policy are separate: this class owns slots, states and
 * references; an {@link EvictionPolicy} picks victims among unreferenced slots, and owns which items to keep
 * ({@link #keep}). Slot buffers are made all at once or on first use ({@link SlotBuffers}).
 *
 * <p><b>Concurrency.</b> One lock guards every field below except {@code buffers}, which is set once per slot.
 * Callbacks into {@link CacheRequest}s are made after the lock is released, so a callback may call back into the
 * cache. Slot
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
    /** The buffers of a slot-count cache; null for a byte-budget one. */
    private final SlotBuffers<B> buffers;
    /** The memory of a byte-budget cache; null for a slot-count one. */
    private final ByteBudget<B> budget;
    /** A byte-budget cache's slots that hold no item (a stack of slot indices); they are not in the policy. */
    private final int[] empty;
    private int emptyCount;
    /** Bytes of the byte-budget cache's unreferenced slots: what evicting everything evictable would free. */
    private long evictableBytes;
    /** The most items held at once (byte budget): the capacity in items the run's sizes gave. */
    private int peakItems;
    private final ReentrantLock lock = new ReentrantLock();
    private final EvictionPolicy policy;
    private final int[] slotOf;
    private final int[] itemOf;
    private final SlotState[] states;
    private final int[] refs;
    private final Throwable[] failures;
    private final SlotWaiters waiters;
    private final ArrayDeque<CacheRequest> blocked = new ArrayDeque<>();
    private long hits;
    private long misses;
    /**
     * Items this cache was ever asked for, for the run's "items needed". The cache starts empty, so an item's first
     * request is always a miss: marking them there sees them all.
     */
    private final BitSet requested;
    private long evictions;
    /** Told each item this cache evicts; see {@link #onEvict}. */
    private volatile IntConsumer evicted = item -> { };
    private long waits;

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
        if (slots < 2) {
            throw new IllegalArgumentException(name + ": a cache needs at least 2 slots, got " + slots);
        }
        this.name = name;
        this.slotBytes = slotBytes;
        this.policy = policy;
        this.slotOf = new int[items];
        Arrays.fill(slotOf, -1);
        this.requested = new BitSet(items);
        this.itemOf = new int[slots];
        Arrays.fill(itemOf, -1);
        this.states = new SlotState[slots];
        Arrays.fill(states, SlotState.FREE);
        this.refs = new int[slots];
        this.failures = new Throwable[slots];
        this.buffers = new SlotBuffers<>(slots, allocator, onFirstUse);
        this.budget = null;
        this.empty = null;
        this.waiters = new SlotWaiters(slots);
        policy.init(slots);
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
        int slots = Math.max(2, items);
        this.name = name;
        this.slotBytes = maxItemBytes;
        this.policy = policy;
        this.slotOf = new int[items];
        Arrays.fill(slotOf, -1);
        this.requested = new BitSet(items);
        this.itemOf = new int[slots];
        Arrays.fill(itemOf, -1);
        this.states = new SlotState[slots];
        Arrays.fill(states, SlotState.FREE);
        this.refs = new int[slots];
        this.failures = new Throwable[slots];
        this.buffers = null;
        this.budget = new ByteBudget<>(memory, maxItemBytes, budgetBytes, slots);
        this.waiters = new SlotWaiters(slots);
        policy.init(slots);
        // Empty slots wait on a stack, not in the policy: eviction by bytes then only ever meets slots that hold some.
        this.empty = new int[slots];
        for (int s = slots - 1; s >= 0; s--) {
            policy.pinned(s);
            empty[emptyCount++] = s;
        }
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
        return itemOf.length;
    }

    /**
     * The buffer of a slot; read or write it only as its state allows. For a cache that allocates on first use, the
     * first call for a slot allocates its buffer.
     */
    public B buffer(int slot) {
        return budget != null ? budget.buffer(slot) : buffers.get(slot);
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
                blocked.addLast(request);
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
            int slot = slotOf[request.item(0)];
            if (slot < 0 || states[slot] == SlotState.INVALID || states[slot] == SlotState.FREE) {
                return false;
            }
            pin(slot);
            if (states[slot] == SlotState.READ) {
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
            int slot = slotOf[request.item(p)];
            if (slot < 0) {
                missing++;
            } else if (refs[slot] == 0) {
                hitsOnEvictable++;
                hitBytes += budget == null ? 0 : budget.bytes(slot);
            }
        }
        if (budget == null ? policy.evictable() - hitsOnEvictable < missing
                : missing > 0 && !budget.fits(missing, evictableBytes - hitBytes)) {
            return false;
        }
        int outstanding = 0;
        // Hits first, so that evicting for a miss can never take a slot this same request is about to hit.
        for (int p = 0; p < n; p++) {
            int item = request.item(p);
            int slot = slotOf[item];
            if (slot >= 0) {
                hits++;
                pin(slot);
                switch (states[slot]) {
                    case READ -> request.assign(p, slot, Grant.READY, null);
                    case INVALID -> request.assign(p, slot, Grant.FAILED, failures[slot]);
                    case WRITE -> {
                        waits++;
                        request.assign(p, slot, Grant.WAIT, null);
                        waiters.add(slot, request, p);
                        outstanding++;
                    }
                    default -> throw new IllegalStateException(name + ": item " + item + " mapped to free slot");
                }
            }
        }
        for (int p = 0; p < n; p++) {
            int item = request.item(p);
            int slot = slotOf[item];
            if (slot < 0) {
                misses++;
                requested.set(item);
                if (budget == null) {
                    slot = policy.victim();
                    unmap(slot);
                } else {
                    slot = empty[--emptyCount];
                    budget.startLoad(slot, this::evictOne);
                }
                itemOf[slot] = item;
                slotOf[item] = slot;
                policy.assigned(slot, item);
                states[slot] = SlotState.WRITE;
                failures[slot] = null;
                refs[slot] = 1;
                request.assign(p, slot, Grant.LOAD, null);
                waiters.add(slot, request, p);
                outstanding++;
            }
        }
        request.arm(outstanding);
        return true;
    }

    private void pin(int slot) {
        if (refs[slot]++ == 0) {
            policy.pinned(slot);
            if (budget != null) {
                evictableBytes -= budget.bytes(slot);
            }
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
     * Byte budget, under the lock: evicts the least recently used unreferenced slot, its buffer freed and the slot
     * emptied; false when no slot is evictable.
     */
    private boolean evictOne() {
        int slot = policy.victim();
        if (slot < 0) {
            return false;
        }
        evictableBytes -= budget.bytes(slot);
        unmap(slot);
        budget.release(slot);
        states[slot] = SlotState.FREE;
        failures[slot] = null;
        empty[emptyCount++] = slot;
        return true;
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
        boolean fits = false;
        if (budget != null && state == SlotState.READ) {
            // Into a buffer of the item's own size; the copy runs outside the lock, by the loader that owns the slot.
            lock.lock();
            try {
                checkWrite(slot);
                fitted = budget.fitting(slot, this::evictOne);
            } finally {
                lock.unlock();
            }
            fits = fitted == null; // a maximal item stays where it was loaded
            if (!fits) {
                budget.copyLoaded(slot, fitted);
            }
        }
        SlotWaiters.Taken taken;
        ArrayList<CacheRequest> granted = null;
        lock.lock();
        try {
            checkWrite(slot);
            states[slot] = state;
            failures[slot] = error;
            taken = waiters.take(slot);
            if (budget != null) {
                if (fitted != null) {
                    budget.install(slot, fitted);
                } else if (!fits) {
                    budget.release(slot);
                }
                peakItems = Math.max(peakItems, itemOf.length - emptyCount);
                // The loading buffer's bytes are free again: a request waiting for room may fit now.
                granted = grantBlocked();
            }
        } finally {
            lock.unlock();
        }
        taken.settle(error);
        settleGranted(granted);
    }

    private void checkWrite(int slot) {
        if (states[slot] != SlotState.WRITE) {
            throw new IllegalStateException(name + ": slot " + slot + " is " + states[slot] + ", not WRITE");
        }
    }

    /** Drops the request's references; slots without references become evictable and blocked requests retry. */
    public void release(CacheRequest request) {
        release(request, false);
    }

    /**
     * As {@link #release}, but a slot left without references becomes the first to evict: for a read on another's
     * behalf that says nothing about this node's own use of the item (the L3 serving a copy to another node, which
     * from then on is the one asked for it).
     */
    public void releaseCold(CacheRequest request) {
        release(request, true);
    }

    private void release(CacheRequest request, boolean cold) {
        // Local, not shared scratch: a callback below may release (and so re-enter here) on this same thread.
        ArrayList<CacheRequest> granted = null;
        lock.lock();
        try {
            for (int p = 0; p < request.count(); p++) {
                int slot = request.slot(p);
                if (states[slot] == SlotState.WRITE) {
                    throw new IllegalStateException(name + ": release of slot " + slot + " before its load ended");
                }
                if (--refs[slot] == 0) {
                    if (budget != null) {
                        evictableBytes += budget.bytes(slot);
                    }
                    if (cold) {
                        policy.unpinnedCold(slot);
                    } else {
                        policy.unpinned(slot);
                    }
                } else if (refs[slot] < 0) {
                    throw new IllegalStateException(name + ": slot " + slot + " released more often than pinned");
                }
            }
            granted = grantBlocked();
        } finally {
            lock.unlock();
        }
        settleGranted(granted);
    }

    /** Under the lock: grants blocked requests in order while they fit; the granted ones, or null for none. */
    private ArrayList<CacheRequest> grantBlocked() {
        ArrayList<CacheRequest> granted = null;
        CacheRequest next;
        while ((next = blocked.peekFirst()) != null && tryGrant(next)) {
            blocked.pollFirst();
            if (granted == null) {
                granted = new ArrayList<>(4);
            }
            granted.add(next);
        }
        return granted;
    }

    /** After the lock: tells requests granted by {@link #grantBlocked}. */
    private static void settleGranted(ArrayList<CacheRequest> granted) {
        if (granted != null) {
            for (CacheRequest r : granted) {
                r.onGranted();
                r.settleOne();
            }
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
            touchLocked(a);
            touchLocked(b);
        } finally {
            lock.unlock();
        }
    }

    private void touchLocked(int item) {
        int slot = item < 0 ? -1 : slotOf[item];
        if (slot >= 0 && refs[slot] == 0 && states[slot] == SlotState.READ) {
            policy.pinned(slot);
            policy.unpinned(slot);
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
            policy.keep(items, item -> slotOf[item]);
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
        this.evicted = listener;
    }

    /** Whether the item is in the cache now (any state). For tests and heuristics; may change at once. */
    public boolean contains(int item) {
        lock.lock();
        try {
            return slotOf[item] >= 0;
        } finally {
            lock.unlock();
        }
    }

    /** The items this cache was asked for at least once (a copy). */
    public BitSet requestedItems() {
        lock.lock();
        try {
            return (BitSet) requested.clone();
        } finally {
            lock.unlock();
        }
    }

    /** A consistent snapshot of the counters. */
    public CacheStats stats() {
        lock.lock();
        try {
            // A byte-budget cache reports the most items it held at once: its capacity in items for these sizes.
            return new CacheStats(budget == null ? slots() : peakItems, slotBytes, hits, misses, evictions, waits);
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
            SlotInvariants.check(name, policy, slotOf, itemOf, states, refs, waiters, blocked.size(), quiescent,
                    budget != null);
            if (budget != null) {
                BudgetInvariants.check(name, budget, states, refs, evictableBytes, emptyCount);
            }
        } finally {
            lock.unlock();
        }
    }
}
