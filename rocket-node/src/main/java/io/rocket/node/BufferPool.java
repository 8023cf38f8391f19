package io.rocket.node;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.function.Supplier;

/**
 * A fixed set of buffers lent out: staging buffers between pipeline stages. {@link #take()} blocks when all are
 * lent; the stages form a chain (I/O → CPU → copy → kernel) in which a buffer is always returned by a later stage
 * that never waits on an earlier one, so waiting cannot deadlock.
 *
 * <p>The buffers are either all given to the constructor or, for memory that is cheap to allocate while other work
 * runs (plain direct memory), made by {@link #take} when none is free and fewer than the limit exist: a run then
 * does not wait, before its first item is even read, for staging buffers it needs only as items load (several
 * hundred megabytes of zeroed direct memory for large photos), and a short run never makes those it does not use.
 *
 * @param <B> buffer type
 */
final class BufferPool<B> {
    private final ArrayBlockingQueue<B> free;
    private final int size;
    /** Makes a buffer on first use; null when all were given to the constructor. */
    private final Supplier<B> allocator;
    /** Buffers made so far; guarded by {@code free}'s monitor. */
    private int made;

    /** A pool of the given buffers. */
    BufferPool(List<B> buffers) {
        this.size = buffers.size();
        this.free = new ArrayBlockingQueue<>(size, false, buffers);
        this.allocator = null;
        this.made = size;
    }

    /** A pool of up to {@code size} buffers, each made by {@code allocator} when first needed. */
    BufferPool(int size, Supplier<B> allocator) {
        if (size < 1) {
            throw new IllegalArgumentException("a buffer pool needs at least one buffer, got " + size);
        }
        this.size = size;
        this.free = new ArrayBlockingQueue<>(size);
        this.allocator = allocator;
    }

    B take() {
        B buffer = free.poll();
        if (buffer != null || (buffer = allocateIfUnderLimit()) != null) {
            return buffer;
        }
        try {
            return free.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for a buffer", e);
        }
    }

    /** A buffer when more than {@code reserve} are free, else null at once: for optional work such as read-ahead. */
    B tryTake(int reserve) {
        synchronized (free) {
            if (free.size() + (size - made) <= reserve) {
                return null;
            }
            B buffer = free.poll();
            if (buffer != null) {
                return buffer;
            }
        }
        return allocateIfUnderLimit();
    }

    /**
     * A new buffer while fewer than {@code size} exist, else null. The count is claimed under the lock but the
     * allocation runs outside it, so a thread zeroing a large buffer does not hold up others returning theirs.
     */
    private B allocateIfUnderLimit() {
        if (allocator == null) {
            return null;
        }
        synchronized (free) {
            if (made >= size) {
                return null;
            }
            made++;
        }
        try {
            return allocator.get();
        } catch (RuntimeException | Error e) {
            synchronized (free) {
                made--;
            }
            throw e;
        }
    }

    void give(B buffer) {
        if (!free.offer(buffer)) {
            throw new IllegalStateException("buffer returned twice");
        }
    }

    /** Whether every buffer made is back (leak check after a run). */
    boolean allReturned() {
        synchronized (free) {
            return free.size() == made;
        }
    }

    int size() {
        return size;
    }

    /** A pool of {@code count} staging buffers, made on first use when the memory allows it, else all now. */
    static <B> BufferPool<B> staging(int count, Supplier<B> allocator, boolean onFirstUse) {
        if (onFirstUse) {
            return new BufferPool<>(count, allocator);
        }
        List<B> buffers = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            buffers.add(allocator.get());
        }
        return new BufferPool<>(buffers);
    }
}
