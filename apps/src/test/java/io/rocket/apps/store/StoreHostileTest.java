package io.rocket.apps.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocket.apps.Cli;
import io.rocket.results.journal.StoreLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --store} against hostile and unlucky inputs, through the launcher: a second run on a store another run
 * holds is refused in one line naming the holder and leaves the store whole; damage in the middle of the log is
 * refused in one line (the file, the byte offset, what to do) and {@code --store-repair} keeps the good records; a
 * length field that says 2 GiB with a valid checksum is the same one line, not an OutOfMemoryError; a garbled header
 * names its file.
 */
class StoreHostileTest {
    private static final String ITEMS = "20";
    private static final int PAIRS = 190;

    @TempDir
    Path dir;

    private Path store() {
        return dir.resolve("store");
    }

    private Cli.Result run(String... extra) {
        String[] args = {"synthetic", "--items", ITEMS, "--seed", "5", "--store", store().toString(),
                "--summary-json", dir.resolve("s.json").toString()};
        String[] all = new String[args.length + extra.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(extra, 0, all, args.length, extra.length);
        return Cli.run(all);
    }

    private long[] counts() throws IOException {
        JsonNode s = new ObjectMapper().readTree(dir.resolve("s.json").toFile());
        return new long[] {s.get("pairs_computed").asLong(), s.path("pairs_reused").asLong()};
    }

    private static void assertOneLineError(Cli.Result r, String start) {
        assertThat(r.code()).as(r.both()).isEqualTo(1);
        assertThat(r.err().strip()).as(r.both()).startsWith("rocket: error: " + start).doesNotContain("\n")
                .doesNotContain("Exception");
    }

    private void filled() throws IOException {
        Cli.Result first = run();
        assertThat(first.code()).as(first.both()).isZero();
        assertThat(counts()).containsExactly(PAIRS, 0);
    }

    @Test
    void aSecondRunOnAStoreInUse_isRefusedNamingTheHolder_andTheStoreStaysWhole() throws IOException {
        filled();
        try (StoreLock held = StoreLock.acquire(store(), "--store")) {
            Cli.Result second = run("--items", "30");
            assertOneLineError(second, "--store " + store() + ": in use by another run (pid "
                    + ProcessHandle.current().pid() + " on host ");
            assertThat(second.err()).contains(", since ").contains("); wait for it to end, or give another "
                    + "directory");
        }
        Cli.Result after = run();
        assertThat(after.code()).as(after.both()).isZero();
        assertThat(counts()).containsExactly(0, PAIRS);
    }

    @Test
    void aFlippedByteInTheFirstRecord_isRefused_andStoreRepairKeepsTheGoodRecords() throws IOException {
        System.setProperty("rocket.journal.recordPairs", "50");
        try {
            filled(); // records of 50, 50, 50 and 40 pairs
        } finally {
            System.clearProperty("rocket.journal.recordPairs");
        }
        Path records = store().resolve("records.bin");
        try (RandomAccessFile f = new RandomAccessFile(records.toFile(), "rw")) {
            f.seek(40);
            int b = f.read();
            f.seek(40);
            f.write(b ^ 1);
        }
        byte[] damaged = Files.readAllBytes(records);
        Cli.Result refused = run();
        assertOneLineError(refused, "--store " + store() + ": " + records + " is damaged at byte 0 (a record that "
                + "fails its checksum, and a valid record follows at byte ");
        assertThat(refused.err()).contains("move " + store() + " aside and run again to start a new store, or add "
                + "--store-repair to keep its good records and drop the damaged ones");
        assertThat(Files.readAllBytes(records)).isEqualTo(damaged);

        // The first record defined every item: the repair keeps nothing, and says so; the run computes all again.
        Cli.Result repaired = run("--store-repair");
        assertThat(repaired.code()).as(repaired.both()).isZero();
        assertThat(counts()).containsExactly(PAIRS, 0);
        Cli.Result after = run();
        assertThat(after.code()).as(after.both()).isZero();
        assertThat(counts()).containsExactly(0, PAIRS);

        Cli.Result usage = Cli.run("synthetic", "--items", "4", "--store-repair");
        assertThat(usage.code()).as(usage.both()).isEqualTo(2);
        assertThat(usage.err()).contains("--store-repair: give it with --store DIR");
    }

    @Test
    void aLengthOf2GiBWithAValidChecksum_isOneLine_notAnOutOfMemoryError() throws IOException {
        filled();
        Path records = store().resolve("records.bin");
        try (RandomAccessFile f = new RandomAccessFile(records.toFile(), "rw")) {
            byte[] payload = new byte[f.readInt()];
            f.seek(8);
            f.readFully(payload);
            ByteBuffer.wrap(payload).putInt(8, Integer.MAX_VALUE); // the first item's identity length
            CRC32 crc = new CRC32(); // as the store computes it
            crc.update(payload);
            f.seek(4);
            f.writeInt((int) crc.getValue());
            f.write(payload);
        }
        Cli.Result r = run();
        assertOneLineError(r, "--store " + store() + ": " + records + " is damaged at byte 0 (a record that cannot "
                + "be read: a length of 2147483647 bytes where the record holds ");
    }

    @Test
    void aGarbledHeader_namesTheFileAndWhatToDo() throws IOException {
        filled();
        Path header = store().resolve("store.txt");
        byte[] bytes = Files.readAllBytes(header);
        bytes[3] = (byte) 0xFF;
        Files.write(header, bytes);
        Cli.Result r = run();
        assertOneLineError(r, "--store " + store() + ": " + header + " is damaged (it is not the text a result "
                + "store header should be); move " + store() + " aside and run again to start over");
        assertThat(r.err()).doesNotContain("Input length");
    }
}
