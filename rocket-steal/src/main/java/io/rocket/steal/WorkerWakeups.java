package io.rocket.steal;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.IntPredicate;

/**
 * Where a {@link WorkScheduler}'s idle workers and its watcher wait, and how they are woken. A worker that finds no
 * work parks on its own {@link Wakeup} until the condition it was given says it would find some; whoever makes work
 * available calls {@link #workArrived}, which costs one volatile read while no worker is idle, so a busy node pays
 * nothing for it per region beyond that and never anything per pair. The watcher (the cluster's steal agent) is rung
 * when the node may have run out of regions to start or its window changed.
 */
final class WorkerWakeups {
    /** Rung by no one and waited on by no one: the watcher until {@link #watch} sets one. */
    private static final Wakeup NO_WATCHER = new Wakeup();

    /** Per worker, where it parks while it finds no work, and the condition it waits for (made once). */
    private final Wakeup[] idle;
    private final BooleanSupplier[] workFor;
    /** Workers parked or about to park: ringing them costs nothing while none is. */
    private final AtomicInteger idleWorkers = new AtomicInteger();
    private volatile Wakeup watcher = NO_WATCHER;

    /**
     * @param workers the number of workers
     * @param hasWork whether a worker would find a region now, or should stop: what a parked worker waits for. It
     *                must read only state published through locks or volatile fields (see {@link Wakeup})
     */
    WorkerWakeups(int workers, IntPredicate hasWork) {
        this.idle = new Wakeup[workers];
        this.workFor = new BooleanSupplier[workers];
        for (int w = 0; w < workers; w++) {
            int id = w;
            idle[w] = new Wakeup();
            workFor[w] = () -> hasWork.test(id);
        }
    }

    /** Sets the watcher, rung from any thread by {@link #ringWatcher} and {@link #regionTaken}. */
    void watch(Wakeup value) {
        watcher = value;
    }

    /**
     * Parks {@code worker} until it may find work. No timeout: every change that can give it work rings it
     * ({@link #workArrived}), and it registers as idle before it checks, so a ring cannot fall between its check and
     * its park.
     *
     * @throws InterruptedException if the worker's thread was interrupted (its flag is then cleared)
     */
    void park(int worker) throws InterruptedException {
        idleWorkers.incrementAndGet();
        try {
            idle[worker].await(workFor[worker], Long.MAX_VALUE);
        } finally {
            idleWorkers.decrementAndGet();
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }

    /** Wakes the idle workers after work was made available to them; a volatile read while none is idle. */
    void workArrived() {
        if (idleWorkers.get() > 0) {
            for (Wakeup w : idle) {
                w.ring();
            }
        }
    }

    /** Wakes every worker and the watcher: the run ends. */
    void wakeAll() {
        for (Wakeup w : idle) {
            w.ring();
        }
        watcher.ring();
    }

    /** Wakes the watcher: the node may have run out of regions to start, or its window changed. */
    void ringWatcher() {
        watcher.ring();
    }

    /**
     * A region was taken from {@code deque}: if that emptied it, the node may be out of regions to start. Checks the
     * deque only while the watcher waits, since only then can the ring matter.
     */
    void regionTaken(WorkDeque deque) {
        Wakeup w = watcher;
        if (w.waiting() && deque.isEmpty()) {
            w.ring();
        }
    }
}
