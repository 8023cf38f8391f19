package io.rocket.cli;

import io.rocket.output.PairOutput;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.core.SinkFiles;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A command's pair outputs, opened when the run delivers its first result, when a journal asks for its files, or
 * when the run ends ({@link #finish}): a run refused before that (an unusable device, a cache too small for an item,
 * a cluster that cannot form) leaves the files of an earlier run exactly as they were. While open,
 * {@link #writeOut} puts what the outputs hold in memory into their files (every few seconds, from
 * {@link #writeOutEvery}'s thread), and {@link #stop} ends them when a signal stops the run: results that arrive
 * after it are dropped, so the files end on a whole line.
 *
 * @param <K> key type
 * @param <R> result type
 */
final class DeferredOutputs<K, R> implements ResultSink<K, R> {
    private static final Logger LOG = LoggerFactory.getLogger(DeferredOutputs.class);
    // What deliver() hands on: constants rather than a lambda, so that no result allocates.
    private static final int ACCEPT = 0;
    private static final int FAILED = 1;
    private static final int REPLAY = 2;
    private static final int REPLAY_FAILED = 3;

    /** Opens the outputs: {@link PairOutputs#open}, with the command's settings. */
    @FunctionalInterface
    interface Opener<K, R> {
        PairOutput<K, R> open() throws IOException;
    }

    private final Opener<K, R> opener;
    private final String name;
    /** Results hold the read lock; {@link #stop} takes the write lock, so no result is half written when it ends. */
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile PairOutput<K, R> sink;
    private boolean stopped;
    /** The first write that failed (a full disk): later results are not written, the run ends with its message. */
    private volatile RocketException failure;

    /**
     * @param opener opens the outputs, once
     * @param name   how messages name the outputs, e.g. the {@code --output} file
     */
    DeferredOutputs(Opener<K, R> opener, String name) {
        this.opener = opener;
        this.name = name;
    }

    private PairOutput<K, R> sink() {
        PairOutput<K, R> s = sink;
        if (s == null) {
            synchronized (this) {
                s = sink;
                if (s == null) {
                    try {
                        s = opener.open();
                    } catch (IOException e) {
                        throw new RocketException("cannot write " + name + ": " + e.getMessage(), e);
                    }
                    sink = s;
                }
            }
        }
        return s;
    }

    @Override
    public void accept(int i, int j, K left, K right, R result) {
        deliver(ACCEPT, i, j, left, right, result, null);
    }

    @Override
    public void failed(int i, int j, K left, K right, Throwable error) {
        deliver(FAILED, i, j, left, right, null, error);
    }

    @Override
    public void replay(int i, int j, K left, K right, R result) {
        deliver(REPLAY, i, j, left, right, result, null);
    }

    @Override
    public void replayFailed(int i, int j, K left, K right, Throwable error) {
        deliver(REPLAY_FAILED, i, j, left, right, null, error);
    }

    /** Hands one result on under the read lock, unless stopped or failed; a failed write stops the outputs. */
    private void deliver(int kind, int i, int j, K left, K right, R result, Throwable error) {
        lock.readLock().lock();
        try {
            if (stopped || failure != null) {
                return;
            }
            ResultSink<K, R> s = sink();
            switch (kind) {
                case ACCEPT -> s.accept(i, j, left, right, result);
                case FAILED -> s.failed(i, j, left, right, error);
                case REPLAY -> s.replay(i, j, left, right, result);
                default -> s.replayFailed(i, j, left, right, error);
            }
        } catch (UncheckedIOException e) {
            failed(e);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The first failed write stops the outputs: one line says so now, the run goes on (a result store still keeps
     * what it computes), and {@link #failure} ends the command with the message.
     */
    private synchronized void failed(UncheckedIOException e) {
        if (failure == null) {
            failure = new RocketException("cannot write " + e.getCause().getMessage(), e.getCause());
            LOG.error("{}; no more results are written to it", failure.getMessage());
        }
    }

    /**
     * The first write that failed, as the error the command ends with.
     *
     * @return the error naming the file and the problem, or null when every write succeeded
     */
    RocketException failure() {
        return failure;
    }

    /** A journal keeps the files in step with its records from the start: they are opened now. */
    @Override
    public SinkFiles files() {
        return sink().files();
    }

    /** The run ended: the outputs exist now even when no result arrived (a file with its header). */
    void finish() {
        sink();
    }

    /**
     * Whether the outputs were opened.
     *
     * @return true once a result, a journal or {@link #finish} opened them
     */
    boolean opened() {
        return sink != null;
    }

    /**
     * How many results the pair TSV holds, when the outputs are a TSV.
     *
     * @return the result lines written, or -1 for outputs of another kind or not opened
     */
    long resultsWritten() {
        PairOutput<K, R> s = sink;
        return s == null ? -1 : s.resultsWritten();
    }

    /**
     * Puts what the outputs hold in memory into their files; nothing when they are not open, stopped or failed. A
     * write that fails stops the outputs as a failed result does ({@link #failure}).
     */
    void writeOut() {
        lock.readLock().lock();
        try {
            PairOutput<K, R> s = sink;
            if (!stopped && failure == null && s != null) {
                s.writeOut();
            }
        } catch (IOException e) {
            failed(new UncheckedIOException(e));
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Starts a daemon thread that calls {@link #writeOut} every {@code interval}, so that the files hold what the
     * run reported done within that time (a reader following them, a process killed outright).
     *
     * @param interval how often
     * @return what stops the thread (after a last {@link #writeOut})
     */
    AutoCloseable writeOutEvery(Duration interval) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rocket-outputs");
            t.setDaemon(true);
            return t;
        });
        long millis = interval.toMillis();
        timer.scheduleWithFixedDelay(() -> {
            try {
                writeOut();
            } catch (RuntimeException e) { // the thread must go on ticking; the run's end reports the outputs
                LOG.warn("cannot write {}: {}", name, e.getMessage());
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
        return timer::shutdownNow;
    }

    /**
     * Ends the outputs where they are, for a run stopped by a signal: waits for a result being written, drops every
     * later one, and closes the files (writing what they hold).
     *
     * @throws Exception when a file cannot be written or closed
     */
    void stop() throws Exception {
        lock.writeLock().lock();
        try {
            if (!stopped) {
                stopped = true;
                if (sink != null) {
                    sink.close();
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void close() throws Exception {
        lock.writeLock().lock();
        try {
            if (!stopped && sink != null) {
                stopped = true;
                sink.close();
            }
        } finally {
            lock.writeLock().unlock();
        }
    }
}
