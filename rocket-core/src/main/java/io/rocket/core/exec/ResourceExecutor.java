package io.rocket.core.exec;

import io.rocket.core.trace.Tracer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One kind of resource served by its own thread(s): the I/O thread, the CPU pool, and per device the kernel and
 * the two copy threads. Tasks run in submission order (per thread), urgent ones first. Busy time is measured per
 * executor for the run summary; task failures are the tasks' own business, and anything escaping is logged, never
 * silently lost.
 */
public final class ResourceExecutor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ResourceExecutor.class);

    private final String name;
    private final ThreadKind kind;
    private final TaskQueue queue = new TaskQueue();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong busyNanos = new AtomicLong();
    private final AtomicLong tasks = new AtomicLong();

    /**
     * Starts {@code threadCount} threads named {@code name}, {@code name-1}, ...
     */
    public ResourceExecutor(String name, ThreadKind kind, int threadCount, Tracer tracer) {
        if (threadCount < 1) {
            throw new IllegalArgumentException(name + ": thread count must be >= 1");
        }
        this.name = name;
        this.kind = kind;
        for (int t = 0; t < threadCount; t++) {
            String threadName = threadCount == 1 ? name : name + "-" + t;
            Thread thread = new Thread(() -> loop(tracer, threadName), "rocket-" + threadName);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    private void loop(Tracer tracer, String threadName) {
        tracer.nameThread(threadName);
        IdleMarks.register();
        long busy = 0;
        long count = 0;
        try {
            Runnable task;
            while ((task = queue.take()) != null) {
                long start = System.nanoTime();
                try {
                    task.run();
                } catch (Throwable t) {
                    LOG.error("{}: task failed outside its own error handling", threadName, t);
                }
                busy += System.nanoTime() - start;
                count++;
                if ((count & 63) == 0 || queue.size() == 0) {
                    busyNanos.addAndGet(busy);
                    tasks.addAndGet(count);
                    busy = 0;
                    count = 0;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            busyNanos.addAndGet(busy);
            tasks.addAndGet(count);
        }
    }

    /** Queues a task. */
    public void execute(Runnable task) {
        queue.add(task);
    }

    /**
     * Queues a task ahead of all ordinary tasks (behind earlier urgent ones): for the steps of item loads, which
     * unblock waiting jobs and must not queue behind a device's backlog of compares.
     */
    public void executeUrgent(Runnable task) {
        queue.addUrgent(task);
    }

    public String name() {
        return name;
    }

    public ThreadKind kind() {
        return kind;
    }

    public int threadCount() {
        return threads.size();
    }

    /** Total time the threads spent running tasks. */
    public long busyNanos() {
        return busyNanos.get();
    }

    /** Tasks run so far. */
    public long taskCount() {
        return tasks.get();
    }

    /** Tasks waiting. */
    public int queued() {
        return queue.size();
    }

    /** Lets queued tasks finish, then stops the threads. */
    @Override
    public void close() {
        queue.close();
        for (Thread thread : threads) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
