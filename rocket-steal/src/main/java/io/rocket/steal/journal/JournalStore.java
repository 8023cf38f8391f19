package io.rocket.steal.journal;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
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
 * {@code [int length][int crc32][payload]}. A record is durable once {@link #append} returns. Reading stops at the
 * first record whose length or checksum is bad — the tail a crash tore or corrupted — and cuts the log there, so
 * the next record follows the last good one. Not thread-safe: one writer appends.
 */
final class JournalStore implements AutoCloseable {
    static final String HEADER = "journal.txt";
    static final String RECORDS = "records.bin";
    private static final String FORMAT = "rocket journal 1";
    private static final int MAX_RECORD = 1 << 30;

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
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).equals(format)) {
            throw new IOException(file + " is not " + what + " of this version (expected '" + format
                    + "' on its first line)");
        }
        return lines;
    }

    /**
     * Opens the journal in {@code dir} to go on with it: hands every good record to {@code reader}, cuts the log
     * after the last one, and returns the store positioned there.
     */
    static JournalStore open(Path dir, RecordReader reader) throws IOException {
        FileChannel log = FileChannel.open(dir.resolve(RECORDS), StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        try {
            long size = log.size();
            long good = 0;
            int records = 0;
            DataInputStream in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(log), 1 << 16));
            CRC32 crc = new CRC32();
            while (size - good >= 8) {
                int length = in.readInt();
                int sum = in.readInt();
                if (length < 0 || length > MAX_RECORD || length > size - good - 8) {
                    break;
                }
                byte[] payload = new byte[length];
                try {
                    in.readFully(payload);
                } catch (EOFException e) {
                    break;
                }
                crc.reset();
                crc.update(payload);
                if ((int) crc.getValue() != sum) {
                    break;
                }
                reader.record(payload);
                good += 8 + length;
                records++;
            }
            if (good < size) {
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
