package io.rocket.results.journal;

import io.rocket.core.ResultCodec;
import io.rocket.steal.PairSet;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Set;

/**
 * Rewrites a result store's log keeping only its live records. A store grows by appending, so it keeps pairs no
 * run will take again: those of an item whose files changed (its old identity), of an item no longer in the
 * collection, and a pair stored twice (a run that died after computing a pair whose record it had not yet
 * written is, for the pair, a run that never computed it). Live are the pairs whose two items have one of the
 * given identities — the run's items — each pair once in each orientation stored; items and item failures are
 * kept for those identities only, renumbered in order.
 *
 * <p>Atomic: the live records go to {@value #TEMP} beside the log, which is synced and then renamed over
 * {@value JournalStore#RECORDS}; the directory is synced after the rename. A crash before the rename leaves the old
 * log as it was and the temporary file behind, which the next opening of the store deletes
 * ({@link #removeLeftover}); a crash after it leaves the compacted log. The store's writer must be closed.
 */
public final class StoreCompaction {
    /** The new log while it is written. */
    static final String TEMP = JournalStore.RECORDS + ".compact";

    /**
     * The share of dead pairs from which the end of a run with {@code --compact-store} rewrites the store: below it
     * the rewrite (every live byte copied) costs more than the space it frees.
     */
    public static final double DEAD_FRACTION = 0.25;

    /**
     * What a compaction found, and whether it rewrote the log.
     *
     * @param pairs     pair records in the log, dead ones included
     * @param livePairs pair records kept (or that would be kept)
     * @param items     items the log defines
     * @param liveItems items kept
     * @param bytes     the log's size before
     * @param rewritten whether the log was rewritten
     */
    public record Outcome(long pairs, long livePairs, long items, long liveItems, long bytes, boolean rewritten) {
        /**
         * The pair records that no run takes.
         *
         * @return {@code pairs - livePairs}
         */
        public long deadPairs() {
            return pairs - livePairs;
        }
    }

    private StoreCompaction() {
    }

    /**
     * Deletes the temporary log a compaction that died left in {@code dir}; the log itself is intact.
     *
     * @param dir the store's directory
     * @return whether there was one
     * @throws IOException when it cannot be deleted
     */
    static boolean removeLeftover(Path dir) throws IOException {
        return Files.deleteIfExists(dir.resolve(TEMP));
    }

    /**
     * Compacts the store in {@code dir} when at least {@code minDeadFraction} of its pair records are dead.
     *
     * @param dir             the store's directory, whose writer is closed
     * @param codec           the job's result codec (to step over stored results, which are copied as they are)
     * @param live            the identities of the items whose pairs stay
     * @param minDeadFraction the least share of dead pairs that makes it rewrite (0: whenever one is dead)
     * @return what it found and did
     * @throws IOException when the log cannot be read or the new one written; the old log is then as it was
     */
    public static Outcome compact(Path dir, ResultCodec<?> codec, Set<String> live, double minDeadFraction)
            throws IOException {
        removeLeftover(dir);
        long bytes = Files.size(dir.resolve(JournalStore.RECORDS));
        Pass count = new Pass(codec, live, null);
        JournalStore.open(dir, count::record).close();
        long dead = count.pairs - count.livePairs;
        boolean rewrite = dead > 0 && dead >= minDeadFraction * count.pairs;
        if (rewrite) {
            Path temp = dir.resolve(TEMP);
            try (JournalStore out = JournalStore.createLog(temp)) {
                Pass copy = new Pass(codec, live, out);
                JournalStore.open(dir, copy::record).close();
                out.force();
            }
            Files.move(temp, dir.resolve(JournalStore.RECORDS), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
            JournalStore.forceDirectory(dir);
        }
        return new Outcome(count.pairs, count.livePairs, count.items, count.liveItems, bytes, rewrite);
    }

    /** A stream over one record that tells how far it has read, so a stored result is copied as its bytes. */
    private static final class Cursor extends ByteArrayInputStream {
        Cursor(byte[] bytes) {
            super(bytes);
        }

        int position() {
            return pos;
        }
    }

    /**
     * What {@link #repair} did.
     *
     * @param bytesDropped     bytes of damaged records and regions dropped
     * @param recordsDropped   damaged records (or regions up to the next valid record) dropped
     * @param recordsKept      records kept
     * @param pairsOfLostItems pairs dropped from kept records because they name an item a dropped record defined
     */
    public record Repaired(long bytesDropped, int recordsDropped, int recordsKept, long pairsOfLostItems) {
    }

    /**
     * Repairs the store in {@code dir} ({@code --store-repair}): keeps every record that has a valid length and
     * checksum and can be read, in order, and drops the damaged ones (a damaged region up to the next valid record
     * counts as one), and the pairs of the items a dropped record defined; items are renumbered in order. The new
     * log replaces the old one atomically, as a compaction's does; when nothing is damaged the log is left as it is.
     *
     * @param dir   the store's directory, whose writer is not open
     * @param codec the job's result codec
     * @return what was dropped and kept
     * @throws IOException when the log cannot be read or the new one written; the old log is then as it was
     */
    public static Repaired repair(Path dir, ResultCodec<?> codec) throws IOException {
        removeLeftover(dir);
        Pass pass = new Pass(codec, null, null, Files.size(dir.resolve(JournalStore.RECORDS)) / 8);
        JournalStore.Repair r = JournalStore.repair(dir, dir.resolve(TEMP), pass::rewrite);
        return new Repaired(r.bytesDropped(), r.recordsDropped(), r.recordsKept(), pass.lostPairs);
    }

    /**
     * One reading of the log: counts what is live and, with a log to write to, writes it there. Without
     * {@code live} (a repair) every item is live, pairs are not deduplicated, and a record may define items past a
     * gap (the items of a dropped record): they are dead, and so are their pairs.
     */
    private static final class Pass {
        private final ResultCodec<?> codec;
        private final Set<String> live;
        private final JournalStore out;
        /** A repair's bound on item ids: a damaged id must not size an allocation. */
        private final long maxId;
        /** Each old store id's new id, -1 when dead. */
        private int[] newIds = new int[64];
        private int nextOld;
        private int nextNew;
        /** The pairs kept, by new ids: left &lt; right, and left &gt; right (stored the other way round). */
        private final PairSet forward;
        private final PairSet backward;
        long pairs;
        long livePairs;
        long items;
        long liveItems;
        long lostPairs;

        Pass(ResultCodec<?> codec, Set<String> live, JournalStore out) {
            this(codec, live, out, Integer.MAX_VALUE);
        }

        Pass(ResultCodec<?> codec, Set<String> live, JournalStore out, long maxId) {
            this.codec = codec;
            this.live = live;
            this.out = out;
            this.maxId = maxId;
            this.forward = live == null ? null : new PairSet(live.size());
            this.backward = live == null ? null : new PairSet(live.size());
        }

        /** Reads one record; writes its live part, when it has one, as a record of the new log. */
        void record(byte[] payload) throws IOException {
            byte[] kept = rewrite(payload);
            if (out != null && kept != null) {
                out.append(kept, false);
            }
        }

        /**
         * Reads one record and returns its live part, or null when it has none. A record that cannot be read
         * changes nothing (a repair drops it and goes on).
         */
        byte[] rewrite(byte[] payload) throws IOException {
            int oldNextOld = nextOld;
            int oldNextNew = nextNew;
            long[] counts = {pairs, livePairs, items, liveItems, lostPairs};
            try {
                return read(payload);
            } catch (IOException e) {
                nextOld = oldNextOld;
                nextNew = oldNextNew;
                pairs = counts[0];
                livePairs = counts[1];
                items = counts[2];
                liveItems = counts[3];
                lostPairs = counts[4];
                throw e;
            }
        }

        private byte[] read(byte[] payload) throws IOException {
            Cursor cursor = new Cursor(payload);
            DataInputStream in = new DataInputStream(cursor);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(payload.length);
            DataOutputStream kept = new DataOutputStream(bytes);
            int defined = in.readInt();
            int keptDefined = 0;
            ByteArrayOutputStream definitions = new ByteArrayOutputStream();
            DataOutputStream defs = new DataOutputStream(definitions);
            for (int k = 0; k < defined; k++) {
                int id = in.readInt();
                byte[] text = JournalStore.readBytes(in);
                if (live == null && id > nextOld && id <= maxId) {
                    grow(id);
                    Arrays.fill(newIds, nextOld, id, -1); // defined by a dropped record
                    nextOld = id;
                }
                if (id != nextOld) {
                    throw new IOException("a record defines store item " + id + " where " + nextOld + " was next");
                }
                grow(id);
                items++;
                nextOld++;
                boolean alive = live == null || live.contains(new String(text, StandardCharsets.UTF_8));
                newIds[id] = alive ? nextNew++ : -1;
                if (alive) {
                    liveItems++;
                    keptDefined++;
                    defs.writeInt(newIds[id]);
                    defs.writeInt(text.length);
                    defs.write(text);
                }
            }
            kept.writeInt(keptDefined);
            kept.write(definitions.toByteArray());
            int failed = in.readInt();
            ByteArrayOutputStream failures = new ByteArrayOutputStream();
            DataOutputStream fails = new DataOutputStream(failures);
            int keptFailed = 0;
            for (int k = 0; k < failed; k++) {
                int item = newId(in.readInt());
                String message = in.readUTF();
                if (item >= 0) {
                    keptFailed++;
                    fails.writeInt(item);
                    fails.writeUTF(message);
                }
            }
            kept.writeInt(keptFailed);
            kept.write(failures.toByteArray());
            int count = in.readInt();
            ByteArrayOutputStream pairBytes = new ByteArrayOutputStream();
            DataOutputStream pairOut = new DataOutputStream(pairBytes);
            int keptPairs = 0;
            for (int k = 0; k < count; k++) {
                int ok = in.readByte();
                int i = newId(in.readInt());
                int j = newId(in.readInt());
                int start = cursor.position();
                if (ok == 1) {
                    try {
                        codec.read(in);
                    } catch (RuntimeException e) { // a codec fed bad bytes: the record is bad, not the reader
                        throw new IOException("bad result in a record: " + e, e);
                    }
                } else if (ok == 0) {
                    in.readUTF();
                } else {
                    throw new IOException("bad pair record (kind " + ok + ")");
                }
                pairs++;
                if (live == null && (i < 0 || j < 0)) {
                    lostPairs++;
                }
                if (i >= 0 && j >= 0 && i != j && (live == null || (i < j ? forward : backward).add(i, j))) {
                    livePairs++;
                    keptPairs++;
                    pairOut.writeByte(ok);
                    pairOut.writeInt(i);
                    pairOut.writeInt(j);
                    pairOut.write(payload, start, cursor.position() - start);
                }
            }
            kept.writeInt(keptPairs);
            kept.write(pairBytes.toByteArray());
            return keptDefined > 0 || keptFailed > 0 || keptPairs > 0 ? bytes.toByteArray() : null;
        }

        private void grow(int id) {
            if (id >= newIds.length) {
                newIds = Arrays.copyOf(newIds, Math.max(id + 1, 2 * newIds.length));
            }
        }

        /** The new id of a stored item, -1 when it is dead. */
        private int newId(int id) throws IOException {
            if (id < 0 || id >= nextOld) {
                throw new IOException("a record names store item " + id + " of " + nextOld);
            }
            return newIds[id];
        }
    }
}
