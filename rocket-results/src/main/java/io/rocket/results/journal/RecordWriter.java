package io.rocket.results.journal;

import io.rocket.core.RocketException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Makes the records of a {@link JournalStore} durable in the background, for the run journal and the result store
 * alike: once every {@link RunJournal#SYNC_MILLIS} (or at once when woken because a batch is full) it takes the next
 * record from its {@link Batch} and appends it. One sync runs at a time. The first failure stops the writing and is
 * handed to {@link #onFailure} (the run should stop: its results would not be kept); {@link #close} throws it.
 */
final class RecordWriter {
    private static final Logger LOG = LoggerFactory.getLogger(RecordWriter.class);

    /** Where the records come from. */
    interface Batch {
        /** The next record, or null when nothing arrived since the last one. */
        byte[] take() throws IOException;

        /** Makes durable what the record taken last counts on (the journal's output files), before it is appended. */
        default void beforeAppend() throws IOException {
        }
    }

    private final String name;
    private final JournalStore store;
    private final Batch batch;
    private final Object syncLock = new Object();
    private final Thread writer;
    private volatile boolean closing;
    private boolean closed;
    private volatile Throwable failure;
    private volatile Consumer<Throwable> onFailure = e -> { };

    /**
     * @param name    how messages name the log ("journal DIR", "store DIR")
     * @param clocked sync on the clock from a thread of its own; without, every {@link #wake} syncs at once (the
     *                test hook that wants records of a known size)
     */
    RecordWriter(String name, JournalStore store, Batch batch, boolean clocked) {
        this.name = name;
        this.store = store;
        this.batch = batch;
        if (clocked) {
            writer = new Thread(this::writeLoop, "rocket-" + name.split(" ")[0]);
            writer.setDaemon(true);
            writer.start();
        } else {
            writer = null;
        }
    }

    void onFailure(Consumer<Throwable> handler) {
        onFailure = handler;
    }

    /** A batch is full: write it now rather than at the next tick. */
    void wake() {
        if (writer != null) {
            LockSupport.unpark(writer);
        } else if (!closing) {
            syncQuietly();
        }
    }

    private void writeLoop() {
        while (!closing) {
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(RunJournal.SYNC_MILLIS));
            if (closing || !syncQuietly()) {
                return;
            }
        }
    }

    private boolean syncQuietly() {
        try {
            sync();
            return true;
        } catch (IOException | RuntimeException e) {
            fail(e);
            return false;
        }
    }

    private void fail(Throwable e) {
        if (failure == null) {
            failure = e;
            LOG.error("{}: cannot write it: {}", name, e.toString());
            onFailure.accept(new RocketException(name + ": cannot write it: " + e.getMessage(), e));
        }
    }

    private void sync() throws IOException {
        synchronized (syncLock) {
            if (failure != null) {
                throw new IOException("an earlier write failed", failure);
            }
            if (closed) {
                return;
            }
            byte[] record = batch.take();
            if (record == null) {
                return;
            }
            batch.beforeAppend();
            store.append(record);
        }
    }

    /**
     * Writes what is left, stops the writer and closes the store. Call it once every result is in; after a failed
     * run, it keeps what arrived before the failure.
     *
     * @throws RocketException when the log could not be written
     */
    void close() {
        if (!closing) {
            closing = true;
            if (writer != null) {
                LockSupport.unpark(writer);
                try {
                    writer.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            try {
                if (failure == null) {
                    sync();
                }
            } catch (IOException | RuntimeException e) {
                failure = e;
            } finally {
                synchronized (syncLock) {
                    closed = true;
                    closeStore(store, name);
                }
            }
        }
        if (failure != null) {
            throw new RocketException(name + ": cannot write it: " + failure.getMessage(), failure);
        }
    }

    /** {@link #close} on the way out of a failed run: keeps what it can, throws nothing. */
    void closeQuietly() {
        try {
            close();
        } catch (RuntimeException e) {
            LOG.warn("{}", e.getMessage());
        }
    }

    /** Closes {@code store}, logging rather than throwing: what it holds is already durable. */
    static void closeStore(JournalStore store, String name) {
        if (store != null) {
            try {
                store.close();
            } catch (IOException e) {
                LOG.warn("{}: closing: {}", name, e.toString());
            }
        }
    }
}
