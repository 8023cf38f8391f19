package io.rocket.results.journal;

import io.rocket.core.RocketException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Hostile and unlucky inputs for a result store and a run journal: damage in the middle of a log is refused in one
 * line and leaves the files as they are (only a torn tail is cut), or with {@code --store-repair} keeps the good
 * records and drops the damaged ones; a length read from a record never sizes an
 * allocation beyond the record; a missing records file or a garbled header is named; a second writer on the same
 * directory is refused while the first holds it, and a lock file whose holder died blocks nothing.
 */
class StoreDamageTest extends RecordsOfKnownSize {
    StoreDamageTest() {
        super("store");
    }

    /** A run over {@code keys}: computes every pair the store did not give; returns the sink. */
    private LineSink run(List<Integer> keys) throws Exception {
        return run(keys, false);
    }

    private LineSink run(List<Integer> keys, boolean repair) throws Exception {
        LineSink sink = new LineSink(out);
        ResultStore<Integer, Long> store = ResultStore.open(JournalOptions.store(dir, "--seed=1").withRepair(repair),
                new JournalTestApp(0), keys, sink);
        for (int i = 0; i < keys.size(); i++) {
            for (int j = i + 1; j < keys.size(); j++) {
                if (!store.resumed().contains(i, j)) {
                    store.sink().accept(i, j, keys.get(i), keys.get(j), 1000L * keys.get(i) + keys.get(j));
                }
            }
        }
        store.close();
        sink.close();
        return sink;
    }

    private static void flipByte(Path file, long at) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0x40);
        }
    }

    /** Writes {@code value} at {@code at} in the record that starts at byte 0 and fixes its checksum. */
    private static void rewriteFirstRecord(Path file, int at, int value) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            int length = f.readInt();
            byte[] payload = new byte[length];
            f.seek(8);
            f.readFully(payload);
            ByteBuffer.wrap(payload).putInt(at, value);
            CRC32 crc = new CRC32(); // as JournalStore.append computes it
            crc.update(payload);
            f.seek(4);
            f.writeInt((int) crc.getValue());
            f.write(payload);
        }
    }

    @Test
    void aFlippedByteInTheFirstRecord_isRefusedInOneLine_andTheStoreIsLeftAsItIs() throws Exception {
        run(range(8)); // 28 pairs: records of 10, 10 and 8
        Path records = dir.resolve(JournalStore.RECORDS);
        flipByte(records, 30); // inside the first record's payload
        byte[] damaged = Files.readAllBytes(records);

        assertThatThrownBy(() -> run(range(8)))
                .isInstanceOf(RocketException.class)
                .hasMessageStartingWith("--store " + dir + ": " + records + " is damaged at byte 0 (a record that "
                        + "fails its checksum, and a valid record follows at byte ")
                .hasMessageEndingWith("); it is left as it is: move " + dir + " aside and run again to start a new "
                        + "store, or add --store-repair to keep its good records and drop the damaged ones")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(Files.readAllBytes(records)).isEqualTo(damaged);

        // A flipped length field is damage too, not a torn tail.
        flipByte(records, 30);
        flipByte(records, 1);
        assertThatThrownBy(() -> run(range(8))).hasMessageContaining(" is damaged at byte 0 (a record of ");
        flipByte(records, 1);
        assertThat(run(range(8)).accepted).isEmpty(); // whole again: every pair reused
    }

    /** The offsets of the log's records. */
    private static List<Long> recordStarts(Path records) throws IOException {
        List<Long> starts = new java.util.ArrayList<>();
        try (RandomAccessFile f = new RandomAccessFile(records.toFile(), "rw")) {
            for (long at = 0; at < f.length(); ) {
                starts.add(at);
                f.seek(at);
                at += 8 + f.readInt();
            }
        }
        return starts;
    }

    @Test
    void storeRepair_keepsTheGoodRecords_andDropsTheDamagedOne() throws Exception {
        run(range(4)); // one record: items 0..3 and their 6 pairs
        run(range(8)); // items 4..7 and 10 pairs, then records of 10 and 2 pairs
        Path records = dir.resolve(JournalStore.RECORDS);
        List<Long> starts = recordStarts(records);
        assertThat(starts).hasSize(4);
        flipByte(records, starts.get(2) + 20); // the second record of the second run: 10 pairs, no items
        assertThatThrownBy(() -> run(range(8))).hasMessageContaining(" is damaged at byte " + starts.get(2) + " (");

        LineSink repaired = run(range(8), true);
        assertThat(repaired.accepted).hasSize(10);
        assertThat(repaired.replayed).hasSize(28 - 10);
        LineSink after = run(range(8));
        assertThat(after.accepted).isEmpty();
        assertThat(after.replayed).hasSize(28);
        // Nothing left to repair: the log stays as it is.
        byte[] whole = Files.readAllBytes(records);
        assertThat(run(range(8), true).accepted).isEmpty();
        assertThat(Files.readAllBytes(records)).isEqualTo(whole);
    }

    @Test
    void storeRepair_ofARecordThatDefinedItems_dropsTheirPairs_andKeepsTheItemsDefinedAfter() throws Exception {
        run(range(4));
        run(range(8));
        run(range(10)); // items 8 and 9, after those of the second run
        Path records = dir.resolve(JournalStore.RECORDS);
        List<Long> starts = recordStarts(records);
        flipByte(records, starts.get(1) + 14); // the record that defines items 4..7
        LineSink repaired = run(range(10), true);
        // Every pair of items 4..7 is computed again (the items are lost); the pairs of 0..3, 8 and 9 are kept.
        assertThat(repaired.replayed).hasSize(15);
        assertThat(repaired.accepted).hasSize(45 - 15);
        assertThat(run(range(10)).accepted).isEmpty();
    }

    @Test
    void aTornTail_isStillCut_andOnlyIt() throws Exception {
        run(range(8));
        Path records = dir.resolve(JournalStore.RECORDS);
        long size = Files.size(records);
        try (RandomAccessFile f = new RandomAccessFile(records.toFile(), "rw")) {
            f.setLength(size + 100); // a crash that left zeros after the last record
        }
        assertThat(run(range(8)).accepted).isEmpty();
        assertThat(Files.size(records)).isEqualTo(size);
    }

    @Test
    void aLengthOfTwoGigabytesWithAValidChecksum_isOneLine_notAnOutOfMemoryError() throws Exception {
        run(range(4));
        Path records = dir.resolve(JournalStore.RECORDS);
        // The first record: [int defined][int id][int text length][text]...; the length says 2^31 - 1.
        rewriteFirstRecord(records, 8, Integer.MAX_VALUE);
        assertThatThrownBy(() -> run(range(4)))
                .isInstanceOf(RocketException.class)
                .hasMessage("--store " + dir + ": " + records + " is damaged at byte 0 (a record that cannot be "
                        + "read: a length of 2147483647 bytes where the record holds " + (Files.size(records) - 20)
                        + " more); it is left as it is: move " + dir + " aside and run again to start a new store, or "
                        + "add --store-repair to keep its good records and drop the damaged ones");
        assertThatThrownBy(() -> StoreCompaction.compact(dir, new JournalTestApp(0).resultCodec(), Set.of(), 0))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("a length of 2147483647 bytes where the record holds");
    }

    @Test
    void aDeletedRecordsFile_isRefused_notAnEmptyStart() throws Exception {
        run(range(4));
        Files.delete(dir.resolve(JournalStore.RECORDS));
        assertThatThrownBy(() -> run(range(4)))
                .hasMessage("--store " + dir + ": " + dir.resolve(JournalStore.RECORDS) + " is missing (the header "
                        + "beside it remains): its records are lost; move " + dir + " aside and run again to start a "
                        + "new store");
        assertThat(dir.resolve(JournalStore.RECORDS)).doesNotExist();
    }

    @Test
    void aJournal_withADamagedFirstRecord_orNoRecordsFile_isRefused() throws Exception {
        Path journal = tmp.resolve("journal");
        JournalTestApp app = new JournalTestApp(8);
        try (LineSink sink = new LineSink(out)) {
            RunJournal<Integer, Long> j = RunJournal.open(new JournalOptions(journal, false, ""), app, app.keys(),
                    sink);
            int k = 0;
            for (int a = 0; a < 8; a++) {
                for (int b = a + 1; b < 8; b++, k++) {
                    j.sink().accept(a, b, a, b, (long) k);
                }
            }
            j.close();
        }
        Path records = journal.resolve(JournalStore.RECORDS);
        flipByte(records, 20);
        assertThatThrownBy(() -> RunJournal.open(new JournalOptions(journal, true, ""), app, app.keys(),
                new LineSink(out)))
                .hasMessageStartingWith("journal " + journal + ": " + records + " is damaged at byte 0 (")
                .hasMessageEndingWith("move " + journal + " aside and run again without --resume to start a new "
                        + "journal");
        Files.delete(records);
        assertThatThrownBy(() -> RunJournal.open(new JournalOptions(journal, true, ""), app, app.keys(),
                new LineSink(out)))
                .hasMessageContaining(records + " is missing");
    }

    @Test
    void aGarbledHeader_namesTheFile_notInputLength() throws Exception {
        run(range(4));
        Path header = dir.resolve(ResultStore.HEADER);
        byte[] bytes = Files.readAllBytes(header);
        bytes[20] = (byte) 0xC3; // a lone UTF-8 lead byte
        bytes[21] = (byte) 0x28;
        Files.write(header, bytes);
        assertThatThrownBy(() -> run(range(4)))
                .hasMessage("--store " + dir + ": " + header + " is damaged (it is not the text a result store "
                        + "header should be); move " + dir + " aside and run again to start over");
    }

    @Test
    void aSecondWriter_isRefusedInOneLineNamingTheHolder_andTheStoreStaysWhole() throws Exception {
        run(range(6));
        try (StoreLock held = StoreLock.acquire(dir, "--store")) {
            String holder = "pid " + ProcessHandle.current().pid() + " on host ";
            assertThatThrownBy(() -> run(range(8)))
                    .isInstanceOf(RocketException.class)
                    .hasMessageStartingWith("--store " + dir + ": in use by another run (" + holder)
                    .hasMessageContaining(", since ")
                    .hasMessageEndingWith("); wait for it to end, or give another directory");
            assertThatThrownBy(() -> ResultLog.check(JournalOptions.store(dir, "--seed=1"), new JournalTestApp(0)))
                    .hasMessageStartingWith("--store " + dir + ": in use by another run (" + holder);
            assertThat(Files.readString(dir.resolve(StoreLock.FILE))).startsWith("pid "
                    + ProcessHandle.current().pid() + "\nhost ");
        }
        LineSink again = run(range(6));
        assertThat(again.accepted).isEmpty();
        assertThat(again.replayed).hasSize(15);
    }

    @Test
    void aLockFileLeftByARunThatDied_blocksNothing() throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(StoreLock.FILE), "pid 999999\nhost gone\nsince 2020-01-01 00:00:00 UTC\n");
        assertThat(run(range(4)).accepted).hasSize(6);
        assertThat(run(range(4)).replayed).hasSize(6);
    }

    @Test
    void aSecondJournalWriter_isRefused() throws Exception {
        Path journal = tmp.resolve("journal");
        try (StoreLock held = StoreLock.acquire(journal, "--journal")) {
            JournalTestApp app = new JournalTestApp(4);
            assertThatThrownBy(() -> RunJournal.open(new JournalOptions(journal, false, ""), app, app.keys(),
                    new LineSink(out)))
                    .hasMessageStartingWith("--journal " + journal + ": in use by another run (pid ");
        }
    }
}
