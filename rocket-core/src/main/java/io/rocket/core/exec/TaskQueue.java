package io.rocket.core.exec;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An unbounded FIFO of tasks that does not allocate per task (an {@link ArrayDeque} grows once and is reused),
 * unlike a linked queue, with a second FIFO of urgent tasks that are taken first. Urgent tasks are the steps of
 * item loads: a load unblocks every job waiting for its item (here and, through the distributed cache, on other
 * nodes), so on a device with many compares queued it must not wait behind all of them. Consumers spin briefly before parking, because on a busy pipeline the next task usually
 * arrives within microseconds and a park/unpark round trip costs more than the wait.
 */
final class TaskQueue {
    private static final int SPINS = 200;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition nonEmpty = lock.newCondition();
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>(256);
    private final ArrayDeque<Runnable> urgent = new ArrayDeque<>(64);
    private int parked;
    private volatile int size;
    private boolean closed;

    void add(Runnable task) {
        add(task, tasks);
    }

    /** Queues a task ahead of every ordinary one (after earlier urgent ones). */
    void addUrgent(Runnable task) {
        add(task, urgent);
    }

    private void add(Runnable task, ArrayDeque<Runnable> lane) {
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("executor is shut down");
            }
            lane.addLast(task);
            size = tasks.size() + urgent.size();
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
            if (tasks.isEmpty() && urgent.isEmpty()) {
                IdleMarks.markIdle();
            }
            while (tasks.isEmpty() && urgent.isEmpty()) {
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
            Runnable task = urgent.isEmpty() ? tasks.pollFirst() : urgent.pollFirst();
            size = tasks.size() + urgent.size();
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
