package io.rocket.results.journal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The files of a run journal in its directory: {@value #HEADER}, a small text header (format, the job's identity,
 * the output files the results also go to), and {@value #RECORDS}, an append-only log of records
 * {@code [int length][int crc32][payload]}. A record is durable once {@link #append} returns. Reading cuts a torn
 * tail — a last record whose length or checksum is bad with nothing valid after it, what a crash leaves — so the
 * next record follows the last good one; a bad record that valid ones follow is damage, refused (see
 * {@link #open(Path, RecordReader, String)}). Not thread-safe: one writer appends.
 */
final class JournalStore implements AutoCloseable {
    static final String HEADER = "journal.txt";
    static final String RECORDS = "records.bin";
    private static final String FORMAT = "rocket journal 1";
    private static final int MAX_RECORD = 1 << 30;
    private static final Logger LOG = LoggerFactory.getLogger(JournalStore.class);

    /** The header: who the job is and which files its results go to (absolute paths, in the sink's order). */
    record Header(JobIdentity identity, List<String> outputs) {
    }

    /** Receives each good record's payload, in order. */
    interface RecordReader {
        void record(byte[] payload) throws IOException;
    }

    private final FileChannel log;
    private final int recovered;

    private JournalStore(FileChannel log, int recovered) {
        this.log = log;
        this.recovered = recovered;
    }

    /** Whether {@code dir} holds a journal. */
    static boolean exists(Path dir) {
        return Files.exists(dir.resolve(HEADER));
    }

    /** Starts a journal in {@code dir}, which must not hold one. */
    static JournalStore create(Path dir, Header header) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(FORMAT);
        lines.add("digest " + header.identity().digest());
        lines.addAll(header.identity().toLines());
        header.outputs().forEach(o -> lines.add("output " + o));
        return create(dir, HEADER, lines);
    }

    /**
     * Starts a log in {@code dir} under the header file {@code headerName} (a journal's, or a result store's):
     * an empty {@value #RECORDS}, then the header, written whole or not at all.
     */
    static JournalStore create(Path dir, String headerName, List<String> lines) throws IOException {
        Files.createDirectories(dir);
        // The empty log first, then the header: a header never stands beside another job's records.
        FileChannel log = FileChannel.open(dir.resolve(RECORDS), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        try {
            log.force(true);
            Path temp = dir.resolve(headerName + ".tmp");
            try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer bytes = StandardCharsets.UTF_8.encode(String.join("\n", lines) + "\n");
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
                out.force(true);
            }
            Files.move(temp, dir.resolve(headerName), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            forceDirectory(dir);
            return new JournalStore(log, 0);
        } catch (IOException | RuntimeException e) {
            log.close();
            throw e;
        }
    }

    /**
     * Starts a bare log in {@code file} (truncated when it exists), with no header: the new log a compaction writes
     * before it takes the place of {@value #RECORDS}.
     */
    static JournalStore createLog(Path file) throws IOException {
        return new JournalStore(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), 0);
    }

    /** Makes everything appended so far durable (after appends made with {@code durable} false). */
    void force() throws IOException {
        log.force(true);
    }

    /** Reads the header of the journal in {@code dir}. */
    static Header readHeader(Path dir) throws IOException {
        List<String> lines = readHeaderLines(dir.resolve(HEADER), FORMAT, "a journal");
        List<String> outputs = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith("output ")) {
                outputs.add(line.substring("output ".length()));
            }
        }
        return new Header(JobIdentity.fromLines(lines), List.copyOf(outputs));
    }

    /** The lines of a header file whose first line must be {@code format}; {@code what} names the kind of log. */
    static List<String> readHeaderLines(Path file, String format, String what) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new IOException(file + " is damaged (it is not the text " + what + " header should be); move "
                    + file.getParent() + " aside and run again to start over", e);
        }
        if (lines.isEmpty() || !lines.get(0).equals(format)) {
            throw new IOException(file + " is not " + what + " of this version (expected '" + format
                    + "' on its first line)");
        }
        return lines;
    }

    /**
     * Opens the journal in {@code dir} to go on with it: hands every good record to {@code reader}, cuts a torn
     * tail after the last one, and returns the store positioned there.
     */
    static JournalStore open(Path dir, RecordReader reader) throws IOException {
        return open(dir, reader, "run again to start over", null);
    }

    /**
     * Opens the log in {@code dir} to go on with it: hands every good record to {@code reader}, in order, and
     * returns the store positioned after the last one. Only a torn tail is cut, with a warning naming the bytes
     * cut: a last record cut short or failing its checksum with no valid record after it (a run that stopped while
     * it wrote). A bad record that valid ones follow, a record that cannot be read, and a missing
     * {@value #RECORDS} are damage: refused, leaving the files as they are.
     *
     * @param startOver what the user does to start over, after "move DIR aside and" (for the refusal)
     * @param repair    how to repair damage instead, after "or", or null
     * @throws IOException naming the file, the byte offset and what is wrong, in one line
     */
    static JournalStore open(Path dir, RecordReader reader, String startOver, String repair) throws IOException {
        Path file = dir.resolve(RECORDS);
        if (!Files.exists(file)) {
            throw new IOException(file + " is missing (the header beside it remains): its records are lost; move "
                    + dir + " aside and " + startOver);
        }
        FileChannel log = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            long size = log.size();
            long good = 0;
            int records = 0;
            DataInputStream in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(log), 1 << 16));
            CRC32 crc = new CRC32();
            String bad = null;
            while (good < size) {
                if (size - good < 8) {
                    bad = "a record header cut short";
                    break;
                }
                int length = in.readInt();
                int sum = in.readInt();
                if (length < 1 || length > MAX_RECORD) {
                    bad = "a record length of " + length;
                    break;
                }
                if (length > size - good - 8) {
                    bad = "a record of " + length + " bytes where " + (size - good - 8) + " remain";
                    break;
                }
                byte[] payload = new byte[length];
                in.readFully(payload);
                crc.reset();
                crc.update(payload);
                if ((int) crc.getValue() != sum) {
                    bad = "a record that fails its checksum";
                    break;
                }
                try {
                    reader.record(payload);
                } catch (IOException e) {
                    throw damaged(file, good, "a record that cannot be read: " + (e.getMessage() == null
                            ? "it ends early" : e.getMessage()), dir, damageHint(startOver, repair));
                }
                good += 8 + length;
                records++;
            }
            if (bad != null) {
                long next = nextValid(log, good + 1, size);
                if (next >= 0) {
                    throw damaged(file, good, bad + ", and a valid record follows at byte " + next, dir,
                            damageHint(startOver, repair));
                }
                LOG.warn("{}: cut {} bytes at byte {} ({}, nothing valid after it: the tail of a run that stopped "
                        + "while writing; its pairs are computed again)", file, size - good, good, bad);
                log.truncate(good);
                log.force(true);
            }
            log.position(good);
            return new JournalStore(log, records);
        } catch (IOException | RuntimeException e) {
            log.close();
            throw e;
        }
    }

    /** Rewrites one good record for a repaired log: what to keep of it, or null for nothing. */
    interface RecordRewriter {
        /**
         * @throws IOException when the record cannot be read: it is dropped
         */
        byte[] rewrite(byte[] payload) throws IOException;
    }

    /**
     * What {@link #repair} dropped: the bytes of damaged records and regions, how many there were, and the records
     * kept.
     */
    record Repair(long bytesDropped, int recordsDropped, int recordsKept) {
    }

    /**
     * Repairs the log in {@code dir}: every record with a valid length and checksum that {@code rewriter} can read
     * is kept (as it rewrites it), in order; damaged regions (up to the next valid record) and records it cannot
     * read are dropped. When anything is dropped, the kept records go to {@code temp}, which is synced and renamed
     * over {@value #RECORDS}; otherwise the log is left as it is.
     */
    static Repair repair(Path dir, Path temp, RecordRewriter rewriter) throws IOException {
        Path file = dir.resolve(RECORDS);
        long dropped = 0;
        int droppedRecords = 0;
        int kept = 0;
        try (FileChannel log = FileChannel.open(file, StandardOpenOption.READ);
             JournalStore out = createLog(temp)) {
            long size = log.size();
            long at = 0;
            ByteBuffer head = ByteBuffer.allocate(8);
            while (at < size) {
                int length = -1;
                if (size - at >= 8) {
                    head.clear();
                    readFully(log, head, at);
                    length = head.getInt(0);
                }
                if (fits(length, at, size)) {
                    ByteBuffer payload = ByteBuffer.allocate(length);
                    readFully(log, payload, at + 8);
                    CRC32 crc = new CRC32();
                    crc.update(payload.array());
                    if ((int) crc.getValue() == head.getInt(4)) {
                        byte[] keep;
                        try {
                            keep = rewriter.rewrite(payload.array());
                        } catch (IOException e) {
                            keep = null;
                            dropped += 8 + length;
                            droppedRecords++;
                        }
                        if (keep != null) {
                            out.append(keep, false);
                            kept++;
                        }
                        at += 8 + length;
                        continue;
                    }
                }
                long next = nextValid(log, at + 1, size);
                long end = next < 0 ? size : next;
                dropped += end - at;
                droppedRecords++;
                at = end;
            }
            out.force();
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
        if (dropped == 0) {
            Files.deleteIfExists(temp);
        } else {
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            forceDirectory(dir);
        }
        return new Repair(dropped, droppedRecords, kept);
    }

    private static void readFully(FileChannel log, ByteBuffer into, long at) throws IOException {
        while (into.hasRemaining()) {
            if (log.read(into, at + into.position()) < 0) {
                throw new IOException("unexpected end of " + RECORDS);
            }
        }
    }

    /** Whether a record header at {@code at} may say {@code length}: a record's size, and within the file. */
    private static boolean fits(int length, long at, long size) {
        return length >= 1 && length <= MAX_RECORD && length <= size - at - 8;
    }

    private static String damageHint(String startOver, String repair) {
        return repair == null ? startOver : startOver + ", or " + repair;
    }

    private static IOException damaged(Path file, long offset, String what, Path dir, String startOver) {
        return new IOException(file + " is damaged at byte " + offset + " (" + what + "); it is left as it is: move "
                + dir + " aside and " + startOver);
    }

    /** The offset of the first valid record (a length that fits and a matching checksum) at or after {@code from}. */
    private static long nextValid(FileChannel log, long from, long size) throws IOException {
        final int window = 1 << 20;
        ByteBuffer heads = ByteBuffer.allocate(window + 8);
        long start = -1;
        int filled = 0;
        for (long p = from; p + 9 <= size; p++) {
            if (start < 0 || p + 8 > start + filled) {
                heads.clear();
                start = p;
                filled = 0;
                while (heads.hasRemaining() && start + filled < size) {
                    int n = log.read(heads, start + filled);
                    if (n < 0) {
                        break;
                    }
                    filled += n;
                }
                if (filled < 8) {
                    return -1;
                }
            }
            int at = (int) (p - start);
            int length = heads.getInt(at);
            if (!fits(length, p, size)) {
                continue;
            }
            if (checksum(log, p + 8, length) == heads.getInt(at + 4)) {
                return p;
            }
        }
        return -1;
    }

    private static int checksum(FileChannel log, long from, int length) throws IOException {
        CRC32 crc = new CRC32();
        ByteBuffer chunk = ByteBuffer.allocate(Math.min(length, 1 << 16));
        long read = 0;
        while (read < length) {
            chunk.clear().limit((int) Math.min(chunk.capacity(), length - read));
            int n = log.read(chunk, from + read);
            if (n < 0) {
                break;
            }
            chunk.flip();
            crc.update(chunk);
            read += n;
        }
        return (int) crc.getValue();
    }

    /**
     * Reads a length-prefixed byte string of a record, the length bounded by what the record still holds (a
     * damaged length must not size an allocation).
     */
    static byte[] readBytes(DataInputStream in) throws IOException {
        int length = in.readInt();
        int left = in.available();
        if (length < 0 || length > left) {
            throw new IOException("a length of " + length + " bytes where the record holds " + left + " more");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }

    /** Records read back when the journal was opened. */
    int recovered() {
        return recovered;
    }

    /** Appends one record and makes it durable. */
    void append(byte[] payload) throws IOException {
        append(payload, true);
    }

    /** Appends one record, durable at once when {@code durable} (else at the next {@link #force}). */
    void append(byte[] payload, boolean durable) throws IOException {
        CRC32 crc = new CRC32();
        crc.update(payload);
        ByteBuffer record = ByteBuffer.allocate(8 + payload.length);
        record.putInt(payload.length).putInt((int) crc.getValue()).put(payload).flip();
        while (record.hasRemaining()) {
            log.write(record);
        }
        if (durable) {
            log.force(false);
        }
    }

    static void forceDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            // Not every platform opens directories; the rename is still atomic there.
        }
    }

    @Override
    public void close() throws IOException {
        log.close();
    }
}
