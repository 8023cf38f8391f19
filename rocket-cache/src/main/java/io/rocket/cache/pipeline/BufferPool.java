package io.rocket.cache.pipeline;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * A fixed set of buffers allocated once and lent out: staging buffers between pipeline stages. {@link #take()}
 * blocks when all are lent; the stages form a chain (I/O → CPU → copy → kernel) in which a buffer is always
 * returned by a later stage that never waits on an earlier one, so waiting cannot deadlock.
 *
 * @param <B> buffer type
 */
final class BufferPool<B> {
    private final ArrayBlockingQueue<B> free;
    private final int size;

    BufferPool(List<B> buffers) {
        this.size = buffers.size();
        this.free = new ArrayBlockingQueue<>(size, false, buffers);
    }

    B take() {
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
            return free.size() > reserve ? free.poll() : null;
        }
    }

    void give(B buffer) {
        if (!free.offer(buffer)) {
            throw new IllegalStateException("buffer returned twice");
        }
    }

    /** Whether every buffer is back (leak check after a run). */
    boolean allReturned() {
        return free.size() == size;
    }

    int size() {
        return size;
    }
}
