package io.rocket.results.journal;

import io.rocket.core.Application;
import io.rocket.core.ResultCodec;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.core.summary.RunSummary;
import io.rocket.steal.PairSet;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The bookkeeping that the run journal and the result store have in common, so that each keeps only its policy.
 * Both record the run's results through a {@link RecordingSink} into records that a {@link RecordWriter} appends to
 * a {@link JournalStore}, hold their directory's {@link StoreLock} for the run, and read the records of earlier runs
 * back, replaying each pair they take into the run's sink once and counting it for the summary.
 *
 * <p>A record is a head of the log's own, then what a {@link PairBatch} writes: the items found failed, then the
 * pairs. What differs is left to the two logs: the head (the journal: its output files' lengths; the store: the
 * items it defines), how a record's numbers name the run's items, how a pair is read and whether the run takes it,
 * and what follows opening and writing (the journal cuts its files back; the store compacts).
 *
 * @param <K> key type
 * @param <R> result type
 */
abstract sealed class RecordLog<K, R> implements ResultLog<K, R> permits RunJournal, ResultStore {
    /** How a log adds what it took to the summary: a journal's pairs are resumed, a store's reused. */
    interface Tally {
        void add(RunSummary summary, long pairs, long errors, List<RunSummary.Failure> failures);
    }

    final Application<K, R> app;
    final List<K> keys;
    final ResultCodec<R> codec;
    final ResultSink<K, R> next;
    /** Takes the pairs read back: each once, replayed to {@link #next} and counted. */
    final ResultSink<K, R> readBack = new ReadBack();
    private final int recordPairs = Integer.getInteger(RunJournal.RECORD_PAIRS_PROPERTY, Integer.MAX_VALUE);
    private final String name;
    private final String failurePrefix;
    private final PairSet taken;
    private final Tally tally;
    private final Map<Integer, String> takenItemFailures = new TreeMap<>();
    private long takenErrors;
    private final Object lock = new Object();
    private final PairBatch<R> batch;
    private final ResultSink<K, R> sink;
    private RecordWriter writer;
    /** Held from opening to closing: one run writes the directory at a time. */
    private StoreLock dirLock;
    /** Set when {@link #close} begins: a {@link #closeQuietly} meanwhile (a shutdown hook) leaves the lock to it. */
    private volatile boolean closing;

    /**
     * @param name          how messages name the log ("journal DIR", "store DIR")
     * @param failurePrefix what begins the message of a log that cannot be opened
     * @param taken         the set that notes the pairs taken from earlier runs
     * @param keepsTooLarge whether a pair that failed for an item too large for the run's buffers is recorded
     * @param tally         how the summary counts the pairs taken
     */
    RecordLog(String name, String failurePrefix, Application<K, R> app, List<K> keys, ResultCodec<R> codec,
              ResultSink<K, R> next, PairSet taken, boolean keepsTooLarge, Tally tally) {
        this.name = name;
        this.failurePrefix = failurePrefix;
        this.app = app;
        this.keys = List.copyOf(keys);
        this.codec = codec;
        this.next = next;
        this.taken = taken;
        this.tally = tally;
        this.batch = new PairBatch<>(codec, recordPairs);
        this.sink = new RecordingSink<>(next, lock, batch, keys.size(), this::recordId, () -> writer.wake(),
                keepsTooLarge);
    }

    /**
     * The application's result codec; a log cannot be kept without one.
     *
     * @param what "journal" or "result store", for the message
     * @throws RocketException when the application defines none
     */
    static <R> ResultCodec<R> codecOf(Application<?, R> app, String what) {
        ResultCodec<R> codec = app.resultCodec();
        if (codec == null) {
            throw new RocketException(app.name() + " cannot keep a " + what + ": it defines no result codec");
        }
        return codec;
    }

    /**
     * Locks {@code dir} for this run, makes the log and opens its records; the lock is let go again when that fails.
     *
     * @param flag the option that named the directory, for the lock's messages
     * @param make makes the log (not opened yet)
     */
    static <L extends RecordLog<?, ?>> L lockAndOpen(Path dir, String flag, Supplier<L> make) {
        StoreLock lock = StoreLock.acquire(dir, flag);
        try {
            L log = make.get();
            RecordLog<?, ?> opening = log; // a type variable does not reach private members
            opening.dirLock = lock;
            opening.begin();
            return log;
        } catch (RuntimeException | Error e) {
            lock.close();
            throw e;
        }
    }

    private void begin() {
        JournalStore records = null;
        try {
            records = openRecords();
            opened(records);
        } catch (IOException e) {
            RecordWriter.closeStore(records, name);
            throw new RocketException(failurePrefix + e.getMessage(), e);
        } catch (RuntimeException e) {
            RecordWriter.closeStore(records, name);
            throw e;
        }
        writer = new RecordWriter(name, records, new Batch(), recordPairs == Integer.MAX_VALUE);
    }

    /**
     * Starts the records or opens them, reading every good record back through {@link #readRecord}.
     *
     * @return the open records
     */
    abstract JournalStore openRecords() throws IOException;

    /** What must follow the reading of the records before the run writes (the journal cuts its files back). */
    void opened(JournalStore records) {
    }

    /** Reads the part of a record that comes before the failed items. */
    abstract void readHead(DataInputStream in) throws IOException;

    /**
     * The run's item that a record's number names.
     *
     * @return the run's index, or -1 for an item the run does not have
     * @throws IOException when the number names no item the records know
     */
    abstract int runItem(int recorded) throws IOException;

    /** Reads one pair of a record; one the run takes goes to {@link #readBack}. */
    abstract void readPair(DataInputStream in) throws IOException;

    /** Writes the part of a record that comes before the failed items; called under the lock of the batch. */
    abstract void writeHead(DataOutputStream out) throws IOException;

    /** Whether the next record has a head to write although no pair arrived; called under the lock of the batch. */
    boolean headPending() {
        return false;
    }

    /** Makes durable what the record taken last counts on, before it is appended. */
    void beforeAppend() throws IOException {
    }

    /** What follows the last record's write at a normal close (the store compacts). */
    void written() {
    }

    /** The number by which a record names a run's item. */
    abstract int recordId(int item);

    /** Reads one record back: the head, the items found failed, then the pairs. */
    final void readRecord(byte[] payload) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
        readHead(in);
        int failedItems = in.readInt();
        for (int k = 0; k < failedItems; k++) {
            int item = runItem(in.readInt());
            String message = in.readUTF();
            if (item >= 0) {
                takenItemFailures.put(item, message);
            }
        }
        int pairs = in.readInt();
        for (int k = 0; k < pairs; k++) {
            readPair(in);
        }
    }

    /** How many of the pairs taken had failed: opening says so. */
    final long takenErrors() {
        return takenErrors;
    }

    /**
     * The pairs taken from earlier runs; not changed by the run.
     *
     * @return the pairs, none for a new log
     */
    @Override
    public final PairSet resumed() {
        return taken;
    }

    /**
     * The sink the run writes to: records each result and hands it on.
     *
     * @return the recording sink
     */
    @Override
    public final ResultSink<K, R> sink() {
        return sink;
    }

    /**
     * What to do when the records cannot be written.
     *
     * @param handler told the failure once, from the writer's thread
     */
    @Override
    public final void onFailure(Consumer<Throwable> handler) {
        writer.onFailure(handler);
    }

    /**
     * Adds the pairs taken from earlier runs and the failed items among them to this run's summary.
     *
     * @param summary this run's summary
     */
    @Override
    public final void addTo(RunSummary summary) {
        List<RunSummary.Failure> failures = new ArrayList<>();
        takenItemFailures.forEach((item, message) ->
                failures.add(new RunSummary.Failure(item, app.label(keys.get(item)), message)));
        tally.add(summary, taken.size(), takenErrors, failures);
    }

    /**
     * Writes what is left and stops the writer. Call it once every result is in; after a failed run, it keeps what
     * arrived before the failure.
     *
     * @throws RocketException when the records could not be written
     */
    @Override
    public final void close() {
        closing = true;
        try {
            writer.close();
            written();
        } finally {
            dirLock.close();
        }
    }

    /** {@link #close} on the way out of a failed run: keeps what it can, throws nothing. */
    @Override
    public final void closeQuietly() {
        boolean closeRunning = closing;
        try {
            writer.closeQuietly();
        } finally {
            if (!closeRunning) {
                dirLock.close();
            }
        }
    }

    /** A record: the head, then the batch, taken together under the batch's lock. */
    private final class Batch implements RecordWriter.Batch {
        @Override
        public byte[] take() throws IOException {
            ByteArrayOutputStream record = new ByteArrayOutputStream();
            synchronized (lock) {
                if (batch.isEmpty() && !headPending()) {
                    return null;
                }
                DataOutputStream out = new DataOutputStream(record);
                writeHead(out);
                batch.drainTo(out);
            }
            return record.toByteArray();
        }

        @Override
        public void beforeAppend() throws IOException {
            RecordLog.this.beforeAppend();
        }
    }

    /**
     * Where the pairs read back go, as new results: the first time the run takes a pair it is noted and replayed to
     * the run's sink ({@link ResultSink#replay}), which need not write it again.
     */
    private final class ReadBack implements ResultSink<K, R> {
        @Override
        public void accept(int i, int j, K left, K right, R result) {
            if (taken.add(i, j)) {
                next.replay(i, j, left, right, result);
            }
        }

        @Override
        public void failed(int i, int j, K left, K right, Throwable error) {
            if (taken.add(i, j)) {
                takenErrors++;
                next.replayFailed(i, j, left, right, error);
            }
        }
    }
}
