package io.rocket.results.journal;

import io.rocket.core.Application;
import io.rocket.core.ResultCodec;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.core.summary.RunSummary;
import io.rocket.results.PairRecords;
import io.rocket.steal.PairSet;
import io.rocket.steal.PairSpace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The result store of a job ({@code --store DIR}): every pair result any run of the job computed, keyed by its two
 * items' {@link ItemIdentity identities} rather than by their places in one run's list, so results outlive the item
 * order. A run over a grown collection takes every pair whose two items the store knows, replays it to the sink
 * ({@link ResultSink#replay}) and computes only the rest (new × old and new × new); a run that died continues the
 * same way; an item whose files changed has another identity, so all its pairs are computed again. The job's
 * identity is its application and the options that change a pair's result ({@link JobIdentity#ofJob}); a store of
 * another job is refused.
 *
 * <p>Layout: {@value #HEADER} (format and the job's identity) and {@value JournalStore#RECORDS}, the journal's
 * append-only log of checksummed records (a torn tail is cut). Each record defines the items first used in it
 * ({@code int} store id and identity text), then names the items found failed and the pairs, as the journal does
 * ({@link PairRecords}), by store ids. Records are written once a second by a {@link RecordWriter}. A pair is
 * stored as computed, left item first; a run that has the two items the other way round computes it again (the
 * application's function need not be symmetric). A failed pair is stored like a result, except one that failed
 * because an item did not fit the run's buffers ({@link io.rocket.core.ItemTooLargeException}): a later run, which
 * may size them larger, computes it again. What the store shares with the run journal is in {@link RecordLog}.
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class ResultStore<K, R> extends RecordLog<K, R> {
    private static final Logger LOG = LoggerFactory.getLogger(ResultStore.class);
    /** The header file, which marks a directory as a store. */
    static final String HEADER = "store.txt";
    private static final String FORMAT = "rocket store 1";

    private final Path dir;
    private final boolean compact;
    private final boolean repair;
    private final JobIdentity identity;
    /** The run's pairs; null for every pair of its items. */
    private final PairSpace space;
    /** Each run item's store id. */
    private final int[] storeIds;
    private final String[] identities;
    private final Map<String, Integer> runIndexByIdentity = new HashMap<>();
    /** Each store id's run item, -1 when the run does not have it. */
    private int[] runIndexOf = new int[64];
    private int nextId;
    /** Run items whose identity the store does not have yet: written with the next record. */
    private final List<Integer> undefined = new ArrayList<>();

    private ResultStore(JournalOptions options, Application<K, R> app, List<K> keys, PairSpace space,
                        ResultCodec<R> codec, ResultSink<K, R> next) {
        super("store " + options.dir(), "--store " + options.dir() + ": ", app, keys, codec, next,
                new PairSet(keys.size()), false, RunSummary::addReused);
        this.dir = options.dir();
        this.space = space;
        this.compact = options.compact();
        this.repair = options.repair();
        this.identity = identity(options, app);
        this.storeIds = new int[keys.size()];
        this.identities = new String[keys.size()];
        Arrays.fill(runIndexOf, -1);
        Arrays.fill(storeIds, -1);
    }

    /**
     * Checks that {@code options}' directory is this job's store or can become one (it holds no journal and no
     * other job's store), before any output is opened.
     *
     * @param options the store's settings
     * @param app     the application
     * @throws RocketException naming the problem in one line
     */
    static void check(JournalOptions options, Application<?, ?> app) {
        Path dir = options.dir();
        StoreLock.check(dir, "--store");
        if (JournalStore.exists(dir)) {
            throw new RocketException("--store: " + dir + " holds a run journal, not a result store; give it as "
                    + "--journal " + dir + " --resume, or choose another directory");
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new RocketException("--store: " + dir + " is not a directory");
        }
        if (Files.exists(dir.resolve(HEADER))) {
            String difference;
            try {
                List<String> lines = JournalStore.readHeaderLines(dir.resolve(HEADER), FORMAT, "a result store");
                // A store made before an option became result-neutral still names it: not a difference.
                difference = JobIdentity.fromLines(lines).withoutOptions(options.neutralOptions())
                        .differenceFrom(identity(options, app).withoutOptions(options.neutralOptions()), "store");
            } catch (IOException e) {
                throw new RocketException("--store " + dir + ": " + e.getMessage(), e);
            }
            if (difference != null) {
                throw new RocketException("--store: " + dir + " holds the results of another job (" + difference
                        + ")");
            }
        }
    }

    private static JobIdentity identity(JournalOptions options, Application<?, ?> app) {
        return JobIdentity.ofJob(app.name(), options.options());
    }

    /**
     * Opens the store in the directory (starting one when it holds none) for a run of {@code app} over {@code keys}
     * whose results go to {@code sink}: every stored pair of two of the run's items is replayed into the sink and
     * noted in {@link #resumed()} before this returns.
     *
     * @param options the store's settings ({@link JournalOptions#store})
     * @param app     the application; it must define a result codec
     * @param keys    the run's items in index order
     * @param sink    where the run's results go
     * @param <K>     key type
     * @param <R>     result type
     * @return the open store
     * @throws RocketException when the application has no result codec, the store is another job's, or the
     *                         directory cannot be used
     */
    public static <K, R> ResultStore<K, R> open(JournalOptions options, Application<K, R> app, List<K> keys,
                                                ResultSink<K, R> sink) {
        return open(options, app, keys, null, sink);
    }

    /**
     * Opens the store for a run that computes the pairs of {@code space} only (queries against references, listed
     * pairs): as {@link #open(JournalOptions, Application, List, ResultSink)}, but only the stored pairs of the space
     * are replayed and taken; the others stay in the store for the runs that ask for them.
     *
     * @param options the store's settings ({@link JournalOptions#store})
     * @param app     the application; it must define a result codec
     * @param keys    the run's items in index order
     * @param space   the run's pairs, or null for every pair of its items
     * @param sink    where the run's results go
     * @param <K>     key type
     * @param <R>     result type
     * @return the open store
     * @throws RocketException when the application has no result codec, the store is another job's, or the
     *                         directory cannot be used
     */
    public static <K, R> ResultStore<K, R> open(JournalOptions options, Application<K, R> app, List<K> keys,
                                                PairSpace space, ResultSink<K, R> sink) {
        ResultCodec<R> codec = codecOf(app, "result store");
        check(options, app);
        return lockAndOpen(options.dir(), "--store",
                () -> new ResultStore<>(options, app, keys, space, codec, sink));
    }

    @Override
    JournalStore openRecords() throws IOException {
        for (int i = 0; i < keys.size(); i++) {
            String id = ItemIdentity.of(app, keys.get(i));
            // The same item twice in one list: each occurrence its own identity, so both keep their pairs.
            for (int copy = 2; runIndexByIdentity.containsKey(id); copy++) {
                id = ItemIdentity.of(app, keys.get(i)) + " #" + copy;
            }
            identities[i] = id;
            runIndexByIdentity.put(id, i);
        }
        if (StoreCompaction.removeLeftover(dir)) {
            LOG.info("store {}: removed the new log of a compaction that did not finish", dir);
        }
        if (!Files.exists(dir.resolve(HEADER))) {
            List<String> lines = new ArrayList<>();
            lines.add(FORMAT);
            lines.add("digest " + identity.digest());
            lines.addAll(identity.toLines());
            return JournalStore.create(dir, HEADER, lines);
        }
        // checked to be this job's by open()
        if (repair && Files.exists(dir.resolve(JournalStore.RECORDS))) {
            repair();
        }
        JournalStore records = JournalStore.open(dir, this::readRecord, "run again to start a new store",
                "add --store-repair to keep its good records and drop the damaged ones");
        LOG.info("store {}: reused {} pairs ({} failed) from {} records", dir, resumed().size(), takenErrors(),
                records.recovered());
        return records;
    }

    /** The run's items the store does not know yet get ids, and go into the next record. */
    @Override
    void opened(JournalStore records) {
        for (int i = 0; i < keys.size(); i++) {
            if (storeIds[i] < 0) {
                storeIds[i] = nextId++;
                undefined.add(i);
            }
        }
    }

    /** {@code --store-repair}: keeps the good records, drops the damaged ones, and says so. */
    private void repair() throws IOException {
        StoreCompaction.Repaired r = StoreCompaction.repair(dir, codec);
        if (r.bytesDropped() > 0) {
            LOG.warn("store {}: repaired: dropped {} bytes in {} damaged records (or regions){}; kept {} records; "
                    + "the pairs dropped are computed again", dir, r.bytesDropped(), r.recordsDropped(),
                    r.pairsOfLostItems() == 0 ? "" : " and " + r.pairsOfLostItems() + " pairs of the items they "
                            + "defined", r.recordsKept());
        } else {
            LOG.info("store {}: --store-repair: no damage found", dir);
        }
    }

    /** A record begins with the items first used in it. */
    @Override
    void readHead(DataInputStream in) throws IOException {
        int defined = in.readInt();
        for (int k = 0; k < defined; k++) {
            int id = in.readInt();
            byte[] text = JournalStore.readBytes(in);
            if (id != nextId) {
                throw new IOException("a record defines store item " + id + " where " + nextId + " was next");
            }
            nextId++;
            Integer runIndex = runIndexByIdentity.get(new String(text, StandardCharsets.UTF_8));
            if (runIndex != null) {
                storeIds[runIndex] = id;
            }
            if (id >= runIndexOf.length) {
                int from = runIndexOf.length;
                runIndexOf = Arrays.copyOf(runIndexOf, Math.max(id + 1, 2 * from));
                Arrays.fill(runIndexOf, from, runIndexOf.length, -1);
            }
            runIndexOf[id] = runIndex == null ? -1 : runIndex;
        }
    }

    /** Pairs are named by store ids; one of items the run lacks, or outside its space, stays in the store. */
    @Override
    void readPair(DataInputStream in) throws IOException {
        int ok = in.readByte();
        int i = runItem(in.readInt());
        int j = runItem(in.readInt());
        if (ok == 1) {
            R result;
            try {
                result = codec.read(in);
            } catch (RuntimeException e) { // a codec fed bad bytes: the record is bad, not the reader
                throw new IOException("bad result in a record: " + e, e);
            }
            if (wanted(i, j)) {
                readBack.accept(i, j, keys.get(i), keys.get(j), result);
            }
        } else if (ok == 0) {
            String message = in.readUTF();
            if (wanted(i, j)) {
                readBack.failed(i, j, keys.get(i), keys.get(j), new PairRecords.RecordedFailure(message));
            }
        } else {
            throw new IOException("bad pair record (kind " + ok + ")");
        }
    }

    /** The run's index of a stored item, -1 when the run does not have it. */
    @Override
    int runItem(int id) throws IOException {
        if (id < 0 || id >= nextId) {
            throw new IOException("a record names store item " + id + " of " + nextId);
        }
        return runIndexOf[id];
    }

    /** Whether a stored pair is one of this run's: of its items, in the same order, in its space. */
    private boolean wanted(int i, int j) {
        return i >= 0 && j >= 0 && i < j && (space == null || space.contains(i, j));
    }

    @Override
    int recordId(int item) {
        return storeIds[item];
    }

    /** With {@code --compact-store}, the store is compacted to the pairs of the run's items once all is written. */
    @Override
    void written() {
        if (compact) {
            compactToRunItems();
        }
    }

    /** A failed compaction leaves the store as it was, which is still whole: it is told, not thrown. */
    private void compactToRunItems() {
        try {
            StoreCompaction.Outcome o = StoreCompaction.compact(dir, codec, Set.of(identities),
                    StoreCompaction.DEAD_FRACTION);
            if (o.rewritten()) {
                LOG.info("store {}: compacted: kept {} of {} pairs and {} of {} items ({} bytes before)", dir,
                        o.livePairs(), o.pairs(), o.liveItems(), o.items(), o.bytes());
            } else {
                LOG.info("store {}: not compacted: {} of {} pairs dead, below {}%", dir, o.deadPairs(), o.pairs(),
                        Math.round(100 * StoreCompaction.DEAD_FRACTION));
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("store {}: compaction failed, the store is kept as it was: {}", dir, e.toString());
        }
    }

    /** The items new to the store come before the batch, so a record defines each item before naming it. */
    @Override
    void writeHead(DataOutputStream out) throws IOException {
        out.writeInt(undefined.size());
        for (int i : undefined) {
            byte[] text = identities[i].getBytes(StandardCharsets.UTF_8);
            out.writeInt(storeIds[i]);
            out.writeInt(text.length);
            out.write(text);
        }
        undefined.clear();
    }

    /** Items new to the store are due in a record even when no pair came with them. */
    @Override
    boolean headPending() {
        return !undefined.isEmpty();
    }
}
