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
     * Starts {@code threadCount} daemon threads named {@code name} (one thread) or {@code name-0},
     * {@code name-1}, ... (several) in the trace, with a {@code rocket-} prefix as Java thread names.
     *
     * @param name the executor's name, e.g. {@code io} or {@code cpu0 kernel}
     * @param kind the kind of work its threads do, for the summary's busy times
     * @param threadCount the number of threads, at least 1
     * @param tracer where each thread names its trace row; {@link Tracer#NOOP} for none
     * @throws IllegalArgumentException when {@code threadCount} is below 1
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

    /**
     * Queues a task. Thread-safe.
     *
     * @param task the task, never null; it handles its own errors (anything escaping is logged)
     * @throws IllegalStateException after {@link #close()}
     */
    public void execute(Runnable task) {
        queue.add(task);
    }

    /**
     * Queues a task ahead of all ordinary tasks (behind earlier urgent ones): for the steps of item loads, which
     * unblock waiting jobs and must not queue behind a device's backlog of compares. Thread-safe.
     *
     * @param task the task, never null; it handles its own errors (anything escaping is logged)
     * @throws IllegalStateException after {@link #close()}
     */
    public void executeUrgent(Runnable task) {
        queue.addUrgent(task);
    }

    /**
     * The executor's name.
     *
     * @return the name given at construction
     */
    public String name() {
        return name;
    }

    /**
     * The kind of work its threads do.
     *
     * @return the kind given at construction
     */
    public ThreadKind kind() {
        return kind;
    }

    /**
     * The number of threads.
     *
     * @return the thread count given at construction, at least 1
     */
    public int threadCount() {
        return threads.size();
    }

    /**
     * Total time the threads spent running tasks.
     *
     * @return the busy time in nanoseconds, summed over threads; a thread publishes its share every 64 tasks and
     *         whenever its queue runs empty, so the figure may lag while the threads are busy
     */
    public long busyNanos() {
        return busyNanos.get();
    }

    /**
     * Tasks run so far.
     *
     * @return the number of tasks completed, published as lazily as {@link #busyNanos()}
     */
    public long taskCount() {
        return tasks.get();
    }

    /**
     * Tasks waiting.
     *
     * @return the number of queued tasks not yet started, urgent ones included
     */
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
