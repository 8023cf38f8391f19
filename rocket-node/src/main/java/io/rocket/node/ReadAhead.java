package io.rocket.node;

import io.rocket.core.trace.TraceEvent;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Read-ahead in schedule order: the scheduler says which items its next leaves will compare ({@link #hint}), and
 * the I/O threads read those items' files into spare file buffers while the devices compute, so that the latency
 * of remote storage hides behind compute instead of stalling the loads. The spare buffers are the budget: at most
 * {@code budget} files are held ahead, and a file read ahead that the schedule no longer asks for is given back
 * after {@value #STALE_HINTS} further hints.
 *
 * <p>A load that finds its item's files read ahead skips its read ({@link #claim}); one that finds them still
 * being read waits for that read instead of starting its own. Items already in the host cache, failed, without
 * input files (generated items, which their loads parse at once) or (with a disk cache) stored on disk are not read
 * ahead. Demand reads go ahead of read-ahead on the I/O queue, and
 * read-ahead only takes a buffer while more than the demand loads' reserve are free, so it never slows a load.
 */
final class ReadAhead {
    /** Hints after which a file read ahead but not yet asked for is given back. */
    static final int STALE_HINTS = 8;

    private static final byte IDLE = 0;
    private static final byte READING = 1;
    private static final byte READY = 2;
    /** In the disk cache: loads take it from there, so it is never read ahead again. */
    private static final byte ON_DISK = 3;

    /** {@link #files}: not asked yet, has input files, has none. */
    private static final byte FILES_UNKNOWN = 0;
    private static final byte HAS_FILES = 1;
    private static final byte NO_FILES = 2;

    /** What a load does with an item's files: read them itself, or wait (they arrive by its callback). */
    enum Claim { NOT_AHEAD, WAITING }

    /** A load waiting for an item's read-ahead. */
    interface Waiter {
        /** The files arrived (or their read failed: {@code files} is null and {@code error} says why). */
        void readAhead(FileBuffer files, Throwable error);
    }

    private final NodePipeline<?, ?> node;
    private final int budget;
    private final int reserve;
    private final byte[] state;
    /** Whether each item has input files, asked of the application once per item; guarded by {@code this}. */
    private final byte[] files;
    private final boolean[] queued;
    private final long[] hintedAt;
    private final FileBuffer[] ready;
    private final Waiter[] waiters;
    private final int[] queue;
    private int head;
    private int size;
    private long epoch;
    private int held;
    private int reading;
    private long fetched;
    private long used;
    private long discarded;
    private long failed;
    private long skippedOnDisk;
    private volatile boolean stopped;

    /**
     * @param budget  files that may be held ahead (the spare buffers of the node's file pool); 0 turns it off
     * @param reserve file buffers kept free for demand loads
     */
    ReadAhead(NodePipeline<?, ?> node, int items, int budget, int reserve) {
        this.node = node;
        this.budget = budget;
        this.reserve = reserve;
        this.state = new byte[items];
        this.files = new byte[items];
        this.queued = new boolean[items];
        this.hintedAt = new long[items];
        this.ready = new FileBuffer[items];
        this.waiters = new Waiter[items];
        this.queue = new int[items];
    }

    boolean enabled() {
        return budget > 0;
    }

    /**
     * The scheduler's next leaf: rows {@code [r0, r1)} against columns {@code [c0, c1)}. Its items are queued in the
     * order its pairs will need them (first row, then the columns, then the other rows), behind earlier hints.
     */
    void hint(int r0, int r1, int c0, int c1) {
        if (budget == 0 || stopped) {
            return;
        }
        synchronized (this) {
            epoch++;
            offer(r0);
            for (int c = c0; c < c1; c++) {
                offer(c);
            }
            for (int r = r0 + 1; r < r1; r++) {
                offer(r);
            }
        }
        pump();
    }

    private void offer(int item) {
        if (item < 0 || item >= state.length) {
            return;
        }
        hintedAt[item] = epoch;
        if (state[item] == IDLE && !queued[item] && wanted(item)) {
            queued[item] = true;
            queue[(head + size) % queue.length] = item;
            size++;
        }
    }

    private boolean wanted(int item) {
        return node.errors().failure(item) == null && !node.l2.contains(item) && hasFiles(item);
    }

    private boolean hasFiles(int item) {
        if (files[item] == FILES_UNKNOWN) {
            boolean any;
            try {
                any = !node.inputFiles(item).isEmpty();
            } catch (RuntimeException e) {
                any = false; // the item's load asks again and reports the error with the item
            }
            files[item] = any ? HAS_FILES : NO_FILES;
        }
        return files[item] == HAS_FILES;
    }

    /** Starts reads while the budget and the file pool allow; gives back files the schedule stopped asking for. */
    void pump() {
        while (!stopped) {
            int item;
            FileBuffer buffer;
            synchronized (this) {
                if (size == 0) {
                    return;
                }
                if (held >= budget) {
                    dropStale();
                    if (held >= budget) {
                        return;
                    }
                }
                item = queue[head];
                if (state[item] != IDLE || !wanted(item)) {
                    dequeue();
                    continue;
                }
                buffer = node.files.tryTake(reserve);
                if (buffer == null) {
                    return;
                }
                dequeue();
                state[item] = READING;
                held++;
                reading++;
            }
            int it = item;
            FileBuffer b = buffer;
            node.io.execute(() -> read(it, b));
        }
    }

    private void dequeue() {
        queued[queue[head]] = false;
        head = (head + 1) % queue.length;
        size--;
    }

    /** Gives back files read ahead that no hint asked for lately (the schedule went elsewhere, or stole them). */
    private void dropStale() {
        for (int item = 0; item < state.length && held >= budget; item++) {
            if (state[item] == READY && hintedAt[item] < epoch - STALE_HINTS) {
                release(item);
                discarded++;
            }
        }
    }

    private void release(int item) {
        node.files.give(ready[item]);
        ready[item] = null;
        state[item] = IDLE;
        held--;
    }

    private void read(int item, FileBuffer buffer) {
        long start = System.nanoTime();
        Throwable error = null;
        boolean unread = stopped; // the run ended: give the buffer back unread
        boolean onDisk = false;
        try {
            List<Path> paths = node.inputFiles(item);
            onDisk = !unread && node.onDisk(item, paths, buffer);
            if (!unread && !onDisk) {
                buffer.read(paths, node.traffic);
                node.telemetry.record(TraceEvent.READ_AHEAD, start, System.nanoTime(), item, -1);
            }
        } catch (Throwable t) {
            error = t;
        }
        Waiter waiter;
        synchronized (this) {
            reading--;
            waiter = waiters[item];
            waiters[item] = null;
            if (error != null || unread || onDisk) {
                node.files.give(buffer);
                state[item] = onDisk ? ON_DISK : IDLE;
                held--;
                if (error != null) {
                    failed++;
                } else if (onDisk) {
                    skippedOnDisk++;
                }
                buffer = null;
            } else if (waiter != null) {
                state[item] = IDLE;
                held--;
                fetched++;
                used++;
            } else {
                state[item] = READY;
                ready[item] = buffer;
                fetched++;
            }
            notifyAll();
        }
        if (waiter != null) {
            // A disk hit found here hands the waiter nothing: it goes on to the disk cache itself.
            waiter.readAhead(buffer, error);
        }
        pump();
    }

    /**
     * A load's claim on its item's files: when they were read ahead, {@code waiter} gets them at once; when they are
     * being read, it gets them (or the error) when the read ends; otherwise the load reads them itself.
     */
    Claim claim(int item, Waiter waiter) {
        if (budget == 0) {
            return Claim.NOT_AHEAD;
        }
        FileBuffer files;
        synchronized (this) {
            if (state[item] == READING) {
                waiters[item] = waiter;
                return Claim.WAITING;
            }
            if (state[item] != READY) {
                return Claim.NOT_AHEAD;
            }
            files = ready[item];
            ready[item] = null;
            state[item] = IDLE;
            held--;
            used++;
        }
        waiter.readAhead(files, null);
        return Claim.WAITING;
    }

    /** Starts no more reads: the run is ending. Reads already queued give their buffers back unread. */
    void stop() {
        stopped = true;
    }

    /** Waits for reads in flight, then gives back every file read ahead: the run is over. */
    synchronized void drain() throws InterruptedException {
        while (reading > 0) {
            wait(100);
        }
        for (int item = 0; item < state.length; item++) {
            if (state[item] == READY) {
                release(item);
                discarded++;
            }
        }
        size = 0;
        java.util.Arrays.fill(queued, false);
    }

    /** The summary's figures: budget in files, files read ahead, used by loads, given back unused, failed. */
    synchronized Map<String, Long> figures() {
        Map<String, Long> f = new LinkedHashMap<>();
        f.put("budget_files", (long) budget);
        f.put("fetched", fetched);
        f.put("used", used);
        f.put("discarded", discarded);
        f.put("failed", failed);
        if (skippedOnDisk > 0) {
            f.put("skipped_on_disk", skippedOnDisk);
        }
        return f;
    }

    /** Files held ahead now (for the trace's counter track). */
    synchronized int held() {
        return held;
    }

    /**
     * Files that fit in the read-ahead budget, at least one when it is on; none for applications without input
     * files, and never more than there are items.
     */
    static int buffersFor(long budgetBytes, long maxFileBytes, int items) {
        if (budgetBytes <= 0 || maxFileBytes <= 0) {
            return 0;
        }
        return (int) Math.min(items, Math.max(1, budgetBytes / maxFileBytes));
    }
}
