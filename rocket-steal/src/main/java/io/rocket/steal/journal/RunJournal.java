package io.rocket.steal.journal;

import io.rocket.core.Application;
import io.rocket.core.ResultCodec;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.core.SinkFiles;
import io.rocket.core.summary.RunSummary;
import io.rocket.steal.PairRecords;
import io.rocket.steal.PairSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The journal of one run ({@code --journal DIR}): wraps the run's result sink, keeps the results that arrive in a
 * batch, and once a second makes them durable — it takes the batch and the lengths of the sink's files together,
 * fsyncs the files, then appends one record (the lengths, items that failed to load, the batch) to the
 * {@link JournalStore} and fsyncs it. So a record never promises more than the files hold.
 *
 * <p>Resuming ({@code --resume}) checks that the journal is this job's ({@link JobIdentity}) and that the sink
 * writes the same files, reads every good record back — replaying its results into the sink's in-memory consumers
 * ({@link ResultSink#replay}) and noting them in {@link #resumed()} — and cuts the files back to the last record's
 * lengths. The run then computes only the missing pairs. Failed pairs are results like others: they are journaled
 * and not tried again (a changed input file is another job).
 *
 * <p>Locks: {@code lock} guards the batch and is held while a result goes to the sink, so the batch and the files
 * always agree; the {@link RecordWriter} runs one sync at a time (its thread, or a caller at the end).
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class RunJournal<K, R> implements ResultLog<K, R> {
    private static final Logger LOG = LoggerFactory.getLogger(RunJournal.class);
    /** How often the batch is made durable: at most this much work is lost to a crash. */
    public static final long SYNC_MILLIS = 1000;
    /**
     * Test hook: a record is written after every this many pairs, and never on the clock, so a test can cut a
     * journal between records at a known place. Unset in real runs.
     */
    public static final String RECORD_PAIRS_PROPERTY = "rocket.journal.recordPairs";

    private final Path dir;
    private final Application<K, R> app;
    private final List<K> keys;
    private final ResultCodec<R> codec;
    private final ResultSink<K, R> next;
    private final SinkFiles files;
    private final int recordPairs;
    private final PairSet resumed;
    private final Map<Integer, String> resumedItemFailures = new TreeMap<>();
    private final Object lock = new Object();
    private final ResultSink<K, R> sink;
    private final PairBatch<R> batch;
    private long resumedErrors;
    private long[] lengths;
    private RecordWriter writer;
    /** Held from opening to closing: one run writes the journal at a time. */
    private StoreLock journalLock;
    /** Set when {@link #close} begins: a {@link #closeQuietly} meanwhile (a shutdown hook) leaves the lock to it. */
    private volatile boolean closing;

    private RunJournal(JournalOptions options, Application<K, R> app, List<K> keys, ResultCodec<R> codec,
                       ResultSink<K, R> next) {
        this.dir = options.dir();
        this.app = app;
        this.keys = List.copyOf(keys);
        this.codec = codec;
        this.next = next;
        this.files = next.files();
        this.recordPairs = Integer.getInteger(RECORD_PAIRS_PROPERTY, Integer.MAX_VALUE);
        this.resumed = new PairSet(keys.size(), app.ordered());
        this.lengths = new long[files.paths().size()];
        this.batch = new PairBatch<>(codec, recordPairs);
        this.sink = new RecordingSink<>(next, lock, batch, keys.size(), i -> i, () -> writer.wake(),
                true);
    }

    /**
     * Checks {@code options} against what {@code dir} holds before any output is opened: a new journal must not
     * overwrite one, and resuming needs one.
     *
     * @throws RocketException naming the problem in one line
     */
    public static void check(JournalOptions options) {
        StoreLock.check(options.dir(), "--journal");
        if (Files.exists(options.dir().resolve(ResultStore.HEADER))) {
            throw new RocketException(options.dir() + " holds a result store, not a journal; give it as --store "
                    + options.dir());
        }
        boolean exists = JournalStore.exists(options.dir());
        if (options.resume() && !exists) {
            throw new RocketException("--resume: no journal in " + options.dir());
        }
        if (!options.resume() && exists) {
            throw new RocketException(options.dir() + " already holds a journal; add --resume to continue it or "
                    + "remove it");
        }
    }

    /**
     * Starts the journal of a run of {@code app} over {@code keys} whose results go to {@code sink}, or resumes the
     * one in the directory: then the sink has seen every journaled result (as a replay) when this returns, and its
     * files are cut back to match.
     *
     * @throws RocketException when the application has no result codec, the journal is another job's or its files
     *                         no longer match, or the directory cannot be used
     */
    public static <K, R> RunJournal<K, R> open(JournalOptions options, Application<K, R> app, List<K> keys,
                                               ResultSink<K, R> sink) {
        ResultCodec<R> codec = app.resultCodec();
        if (codec == null) {
            throw new RocketException(app.name() + " cannot keep a journal: it defines no result codec");
        }
        check(options);
        StoreLock lock = StoreLock.acquire(options.dir(), "--journal");
        try {
            RunJournal<K, R> journal = new RunJournal<>(options, app, keys, codec, sink);
            journal.journalLock = lock;
            journal.begin(options, JobIdentity.of(app, keys, options.options()));
            return journal;
        } catch (RuntimeException | Error e) {
            lock.close();
            throw e;
        }
    }

    private void begin(JournalOptions options, JobIdentity identity) {
        List<String> outputs = files.paths().stream().map(p -> p.toAbsolutePath().normalize().toString()).toList();
        JournalStore store = null;
        try {
            if (options.resume()) {
                JournalStore.Header header = JournalStore.readHeader(dir);
                String difference = header.identity().differenceFrom(identity);
                if (difference != null) {
                    throw new RocketException("--resume: " + dir + " holds the journal of another job (" + difference
                            + ")");
                }
                if (!header.outputs().equals(outputs)) {
                    throw new RocketException("--resume: the journal in " + dir + " was written with the outputs "
                            + header.outputs() + ", this run writes " + outputs + "; resume with the same outputs");
                }
                store = JournalStore.open(dir, this::replay, "run again without --resume to start a new journal",
                        null);
                try {
                    files.cut(lengths);
                } catch (IOException e) {
                    throw new RocketException("--resume: " + e.getMessage(), e);
                }
                LOG.info("journal {}: resumed {} pairs ({} failed) from {} records", dir, resumed.size(),
                        resumedErrors, store.recovered());
            } else {
                store = JournalStore.create(dir, new JournalStore.Header(identity, outputs));
            }
        } catch (IOException e) {
            RecordWriter.closeStore(store, "journal " + dir);
            throw new RocketException("journal " + dir + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            RecordWriter.closeStore(store, "journal " + dir);
            throw e;
        }
        writer = new RecordWriter("journal " + dir, store, new Batch(), recordPairs == Integer.MAX_VALUE);
    }

    /** Reads one record back: the files' lengths, items that failed to load, then the pairs. */
    private void replay(byte[] payload) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
        int fileCount = in.readUnsignedByte();
        if (fileCount != lengths.length) {
            throw new IOException("a record lists " + fileCount + " output files, the header " + lengths.length);
        }
        for (int f = 0; f < fileCount; f++) {
            lengths[f] = in.readLong();
        }
        int failedItems = in.readInt();
        for (int k = 0; k < failedItems; k++) {
            int item = in.readInt();
            String message = in.readUTF();
            if (item < 0 || item >= keys.size()) {
                throw new IOException("a record names item " + item + " of " + keys.size());
            }
            resumedItemFailures.put(item, message);
        }
        int pairs = in.readInt();
        ResultSink<K, R> replayed = new Replayed();
        for (int k = 0; k < pairs; k++) {
            PairRecords.read(in, codec, keys, replayed, true, resumed.ordered());
        }
    }

    /** The pairs read back from the journal (none for a new one); not changed by the run. */
    @Override
    public PairSet resumed() {
        return resumed;
    }

    /** The sink the run writes to: journals each result and hands it on. */
    @Override
    public ResultSink<K, R> sink() {
        return sink;
    }

    @Override
    public void onFailure(Consumer<Throwable> handler) {
        writer.onFailure(handler);
    }

    /** Adds the resumed pairs and failed items to this run's summary. */
    @Override
    public void addTo(RunSummary summary) {
        List<RunSummary.Failure> failures = new ArrayList<>();
        resumedItemFailures.forEach((item, message) ->
                failures.add(new RunSummary.Failure(item, app.label(keys.get(item)), message)));
        summary.addResumed(resumed.size(), resumedErrors, failures);
    }

    /**
     * Writes what is left and stops the writer. Call it once every result is in; after a failed run, it keeps what
     * arrived before the failure.
     *
     * @throws RocketException when the journal could not be written
     */
    @Override
    public void close() {
        closing = true;
        try {
            writer.close();
        } finally {
            journalLock.close();
        }
    }

    @Override
    public void closeQuietly() {
        boolean closeRunning = closing;
        try {
            writer.closeQuietly();
        } finally {
            if (!closeRunning) {
                journalLock.close();
            }
        }
    }

    /** A record: the files' lengths (taken with the batch, under one lock), then the batch; files made durable first. */
    private final class Batch implements RecordWriter.Batch {
        @Override
        public byte[] take() throws IOException {
            ByteArrayOutputStream record = new ByteArrayOutputStream();
            synchronized (lock) {
                if (batch.isEmpty()) {
                    return null;
                }
                long[] now = files.flush();
                DataOutputStream out = new DataOutputStream(record);
                out.writeByte(now.length);
                for (long length : now) {
                    out.writeLong(length);
                }
                batch.drainTo(out);
            }
            return record.toByteArray();
        }

        @Override
        public void beforeAppend() throws IOException {
            files.force();
        }
    }

    /** Takes the results read back from the journal: notes each pair once and replays it to the sink. */
    private final class Replayed implements ResultSink<K, R> {
        @Override
        public void accept(int i, int j, K left, K right, R result) {
            throw new IllegalStateException("journal records are replayed");
        }

        @Override
        public void failed(int i, int j, K left, K right, Throwable error) {
            throw new IllegalStateException("journal records are replayed");
        }

        @Override
        public void replay(int i, int j, K left, K right, R result) {
            if (resumed.add(i, j)) {
                next.replay(i, j, left, right, result);
            }
        }

        @Override
        public void replayFailed(int i, int j, K left, K right, Throwable error) {
            if (resumed.add(i, j)) {
                resumedErrors++;
                next.replayFailed(i, j, left, right, error);
            }
        }
    }
}
