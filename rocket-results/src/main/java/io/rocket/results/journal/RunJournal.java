package io.rocket.results.journal;

import io.rocket.core.Application;
import io.rocket.core.ResultCodec;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.core.SinkFiles;
import io.rocket.core.summary.RunSummary;
import io.rocket.results.PairRecords;
import io.rocket.steal.PairSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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
 * <p>Locks: the batch's lock is held while a result goes to the sink, so the batch and the files always agree; the
 * {@link RecordWriter} runs one sync at a time (its thread, or a caller at the end). What the journal shares with the
 * result store is in {@link RecordLog}.
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class RunJournal<K, R> extends RecordLog<K, R> {
    private static final Logger LOG = LoggerFactory.getLogger(RunJournal.class);
    /** How often the batch is made durable: at most this much work is lost to a crash. */
    public static final long SYNC_MILLIS = 1000;
    /**
     * Test hook: a record is written after every this many pairs, and never on the clock, so a test can cut a
     * journal between records at a known place. Unset in real runs.
     */
    public static final String RECORD_PAIRS_PROPERTY = "rocket.journal.recordPairs";

    private final Path dir;
    private final boolean resume;
    private final JobIdentity identity;
    private final SinkFiles files;
    private final long[] lengths;

    private RunJournal(JournalOptions options, Application<K, R> app, List<K> keys, ResultCodec<R> codec,
                       ResultSink<K, R> next) {
        super("journal " + options.dir(), "journal " + options.dir() + ": ", app, keys, codec, next,
                new PairSet(keys.size(), app.ordered()), true, RunSummary::addResumed);
        this.dir = options.dir();
        this.resume = options.resume();
        this.identity = JobIdentity.of(app, keys, options.options());
        this.files = next.files();
        this.lengths = new long[files.paths().size()];
    }

    /**
     * Checks {@code options} against what {@code dir} holds before any output is opened: a new journal must not
     * overwrite one, and resuming needs one.
     *
     * @param options the journal settings
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
     * @param options where the journal is kept, and whether to resume it
     * @param app     the application; it must define a result codec
     * @param keys    the run's items in index order
     * @param sink    where the run's results go
     * @param <K>     key type
     * @param <R>     result type
     * @return the open journal
     * @throws RocketException when the application has no result codec, the journal is another job's or its files
     *                         no longer match, or the directory cannot be used
     */
    public static <K, R> RunJournal<K, R> open(JournalOptions options, Application<K, R> app, List<K> keys,
                                               ResultSink<K, R> sink) {
        ResultCodec<R> codec = codecOf(app, "journal");
        check(options);
        return lockAndOpen(options.dir(), "--journal", () -> new RunJournal<>(options, app, keys, codec, sink));
    }

    @Override
    JournalStore openRecords() throws IOException {
        List<String> outputs = files.paths().stream().map(p -> p.toAbsolutePath().normalize().toString()).toList();
        if (!resume) {
            return JournalStore.create(dir, new JournalStore.Header(identity, outputs));
        }
        JournalStore.Header header = JournalStore.readHeader(dir);
        String difference = header.identity().differenceFrom(identity);
        if (difference != null) {
            throw new RocketException("--resume: " + dir + " holds the journal of another job (" + difference + ")");
        }
        if (!header.outputs().equals(outputs)) {
            throw new RocketException("--resume: the journal in " + dir + " was written with the outputs "
                    + header.outputs() + ", this run writes " + outputs + "; resume with the same outputs");
        }
        return JournalStore.open(dir, this::readRecord, "run again without --resume to start a new journal", null);
    }

    /** A resumed journal's files may hold results no record promises: they are cut back to the last record's. */
    @Override
    void opened(JournalStore records) {
        if (!resume) {
            return;
        }
        try {
            files.cut(lengths);
        } catch (IOException e) {
            throw new RocketException("--resume: " + e.getMessage(), e);
        }
        LOG.info("journal {}: resumed {} pairs ({} failed) from {} records", dir, resumed().size(),
                takenErrors(), records.recovered());
    }

    /** A record begins with the files' lengths. */
    @Override
    void readHead(DataInputStream in) throws IOException {
        int fileCount = in.readUnsignedByte();
        if (fileCount != lengths.length) {
            throw new IOException("a record lists " + fileCount + " output files, the header " + lengths.length);
        }
        for (int f = 0; f < fileCount; f++) {
            lengths[f] = in.readLong();
        }
    }

    /** The journal names items by their index in the run's list, which is the job's. */
    @Override
    int runItem(int recorded) throws IOException {
        if (recorded < 0 || recorded >= keys.size()) {
            throw new IOException("a record names item " + recorded + " of " + keys.size());
        }
        return recorded;
    }

    @Override
    int recordId(int item) {
        return item;
    }

    @Override
    void readPair(DataInputStream in) throws IOException {
        PairRecords.read(in, codec, keys, readBack, null, false, resumed().ordered());
    }

    /** The files' lengths, taken with the batch under one lock, so a record never promises more than they hold. */
    @Override
    void writeHead(DataOutputStream out) throws IOException {
        long[] now = files.flush();
        out.writeByte(now.length);
        for (long length : now) {
            out.writeLong(length);
        }
    }

    /** The files are made durable before the record that counts on their lengths. */
    @Override
    void beforeAppend() throws IOException {
        files.force();
    }
}
