package io.rocket.cache;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BooleanSupplier;

/**
 * The memory of a byte-budget {@link SlotCache}: which buffer each slot holds, the buffers of each
 * {@link SizeClasses size class} that no slot holds, and the bytes both take against the budget. A slot that loads
 * reserves the bytes of the largest class (the item's size is not known until it is written) and gets a buffer of
 * that class only when its loader first asks for it ({@link #loadBuffer}): the loads granted at once (a task of many
 * items asks for them all together) do not each make, and zero, a maximal buffer before any of them can be
 * written, and the few loads that write at a time share the few large buffers the free list keeps. When it is
 * published the item moves into a buffer of its own class and the large one is freed for the next load. Eviction
 * is the cache's (least recently used, by bytes): this class asks it for room through {@code evictOne}.
 *
 * <p>Not thread-safe: the cache calls every method but {@link #buffer} under its lock. A slot's buffer is set under
 * the lock and read by the slot's loader or readers after the cache granted them the slot, so the array is atomic
 * only to make that reference visible to them.
 *
 * @param <B> the buffer type
 */
final class ByteBudget<B> {
    private final SlotMemory<B> memory;
    private final SizeClasses classes;
    private final long budget;
    private final AtomicReferenceArray<B> held;
    /** The class whose bytes each slot reserves (its buffer's, or the largest while it loads), -1 for none. */
    private final int[] classOfSlot;
    private final ArrayDeque<B>[] free;
    /** Bytes of the buffers slots hold. */
    private long reserved;
    /** Bytes of every buffer made and not dropped: those held and those free. */
    private long allocated;
    private long peakReserved;

    @SuppressWarnings("unchecked")
    ByteBudget(SlotMemory<B> memory, long maxItemBytes, long budget, int slots) {
        this.memory = memory;
        this.classes = new SizeClasses(maxItemBytes);
        if (budget < 2 * maxItemBytes) {
            throw new IllegalArgumentException("a cache of " + budget + " bytes cannot load two items of up to "
                    + maxItemBytes + " bytes at once");
        }
        this.budget = budget;
        this.held = new AtomicReferenceArray<>(slots);
        this.classOfSlot = new int[slots];
        Arrays.fill(classOfSlot, -1);
        this.free = new ArrayDeque[classes.count()];
        for (int c = 0; c < free.length; c++) {
            free[c] = new ArrayDeque<>();
        }
    }

    /** The slot's buffer, or null when it holds none (empty, failed, or loading and not yet written). */
    B buffer(int slot) {
        return held.get(slot);
    }

    /** The bytes the slot reserves: its buffer's, a maximal item's while it loads, 0 when it holds nothing. */
    long bytes(int slot) {
        return classOfSlot[slot] < 0 ? 0 : classes.bytes(classOfSlot[slot]);
    }

    /** The bytes a load needs until its item is published: a buffer of the largest class. */
    long loadBytes() {
        return classes.bytes(classes.largest());
    }

    /** Whether {@code loads} more loads fit once {@code evictableBytes} of held buffers are evicted. */
    boolean fits(int loads, long evictableBytes) {
        return budget - (reserved - evictableBytes) >= loads * loadBytes();
    }

    /** Bytes not held by any slot. */
    long unreserved() {
        return budget - reserved;
    }

    /**
     * Reserves a buffer of the largest class for a loading slot, evicting through {@code evictOne} where needed; the
     * buffer itself is taken when the loader first asks for it ({@link #loadBuffer}).
     */
    void startLoad(int slot, BooleanSupplier evictOne) {
        int c = classes.largest();
        makeRoom(classes.bytes(c), evictOne, 0);
        reserve(slot, c);
    }

    /**
     * The buffer a loading slot writes its item into: taken now, from the free buffers of the largest class or made,
     * within the room its {@link #startLoad} reserved.
     */
    B loadBuffer(int slot) {
        B buffer = held.get(slot);
        if (buffer == null) {
            buffer = freeOrNew(classOfSlot[slot], 0);
            held.set(slot, buffer);
        }
        return buffer;
    }

    /**
     * A buffer for the loaded item of {@code slot}, of the class its length needs; the caller copies the item into it
     * (outside the lock) and then calls {@link #install}. Null when the item needs the largest class: it stays in the
     * buffer it was loaded into. The loading buffer is freed right after the copy, so its bytes count as room here.
     */
    B fitting(int slot, BooleanSupplier evictOne) {
        int c = classes.classOf(memory.length(loadBuffer(slot)));
        return c == classes.largest() ? null : take(c, evictOne, loadBytes());
    }

    /** The length of the item loaded into {@code slot}'s buffer. */
    long loadedLength(int slot) {
        return memory.length(held.get(slot));
    }

    /** Copies the loaded item of {@code slot} into {@code fitted}; runs outside the lock, on the loader's thread. */
    void copyLoaded(int slot, B fitted) {
        B loaded = held.get(slot);
        memory.copy(loaded, fitted, memory.length(loaded));
    }

    /** The slot now holds {@code fitted} (from {@link #fitting}); the buffer it loaded into is freed. */
    void install(int slot, B fitted) {
        long length = memory.length(fitted);
        release(slot);
        hold(slot, classes.classOf(length), fitted);
        trim();
    }

    /** The slot's buffer goes back to its class's free buffers, its bytes to the budget (eviction, a failed load). */
    void release(int slot) {
        B buffer = held.getAndSet(slot, null);
        int c = classOfSlot[slot];
        if (c >= 0) {
            reserved -= classes.bytes(c);
            classOfSlot[slot] = -1;
            if (buffer != null) {
                free[c].addLast(buffer);
            }
        }
    }

    /** The most bytes slots held at once. */
    long peakBytes() {
        return peakReserved;
    }

    /** The budget in bytes. */
    long budget() {
        return budget;
    }

    private void hold(int slot, int c, B buffer) {
        reserve(slot, c);
        held.set(slot, buffer);
    }

    private void reserve(int slot, int c) {
        classOfSlot[slot] = c;
        reserved += classes.bytes(c);
        peakReserved = Math.max(peakReserved, reserved);
    }

    /**
     * A buffer of class {@code c}, once the slots hold room for it (least recently used ones evicted): a free one, or
     * a new one once free buffers of other classes are dropped. When nothing is left to evict the budget is overrun
     * by this one buffer:
     * only a publish can need that (its loading buffer is freed right after), never a load, whose room the cache
     * checked before granting it.
     */
    private B take(int c, BooleanSupplier evictOne, long credit) {
        makeRoom(classes.bytes(c), evictOne, credit);
        return freeOrNew(c, credit);
    }

    /** Evicts least recently used slots until {@code size} more bytes fit, {@code credit} bytes about to be freed. */
    private void makeRoom(long size, BooleanSupplier evictOne, long credit) {
        while (reserved - credit + size > budget && evictOne.getAsBoolean()) {
            // each pass evicts the least recently used slot
        }
    }

    /**
     * A free buffer of class {@code c}, or a new one, dropping free buffers of other classes to stay in budget
     * ({@code credit} bytes about to be freed).
     */
    private B freeOrNew(int c, long credit) {
        long size = classes.bytes(c);
        while (true) {
            B buffer = free[c].pollLast();
            if (buffer != null) {
                return buffer;
            }
            if (allocated - credit + size <= budget || !dropOneFree()) {
                allocated += size;
                return memory.allocate(size);
            }
        }
    }

    /** Drops free buffers while more is made than the budget allows. */
    private void trim() {
        while (allocated > budget && dropOneFree()) {
            // each pass drops one
        }
    }

    /** Drops one free buffer, of the largest class that has one; false when none is free. */
    private boolean dropOneFree() {
        for (int c = free.length - 1; c >= 0; c--) {
            if (free[c].pollLast() != null) {
                allocated -= classes.bytes(c);
                return true;
            }
        }
        return false;
    }
}
