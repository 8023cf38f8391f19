package io.rocket.core.exec;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An unbounded FIFO of tasks that does not allocate per task (an {@link ArrayDeque} grows once and is reused),
 * unlike a linked queue. Consumers spin briefly before parking, because on a busy pipeline the next task usually
 * arrives within microseconds and a park/unpark round trip costs more than the wait.
 */
final class TaskQueue {
    private static final int SPINS = 200;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition nonEmpty = lock.newCondition();
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>(256);
    private int parked;
    private volatile int size;
    private boolean closed;

    void add(Runnable task) {
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("executor is shut down");
            }
            tasks.addLast(task);
            size = tasks.size();
            if (parked > 0) {
                nonEmpty.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The next task, or null once closed and drained. */
    Runnable take() throws InterruptedException {
        for (int spin = 0; spin < SPINS && size == 0; spin++) {
            Thread.onSpinWait();
        }
        lock.lock();
        try {
            if (tasks.isEmpty()) {
                IdleMarks.markIdle();
            }
            while (tasks.isEmpty()) {
                if (closed) {
                    return null;
                }
                parked++;
                try {
                    nonEmpty.await(100, TimeUnit.MILLISECONDS);
                } finally {
                    parked--;
                }
            }
            Runnable task = tasks.pollFirst();
            size = tasks.size();
            return task;
        } finally {
            lock.unlock();
        }
    }

    int size() {
        return size;
    }

    void close() {
        lock.lock();
        try {
            closed = true;
            nonEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
