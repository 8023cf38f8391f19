package io.rocket.cache.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A {@link DiskCache} directory's entry bytes and count, as kept at the start of its lock file, so that every process
 * sharing the directory knows the total without scanning it. Only the holder of the directory lock reads and
 * updates it.
 */
final class UsageRecord {
    /** "RKDU": the record's magic; then the format version (int), entry bytes (long), entry count (long). */
    static final int USAGE_MAGIC = 0x524B4455;
    static final int USAGE_BYTES = 24;

    /** Bytes of entry files in the directory, headers included. */
    long bytes;
    /** Entry files in the directory. */
    long entries;

    /** Reads the record; false if it is absent or not one (a new directory, or damage). */
    boolean read(FileChannel channel) throws IOException {
        if (channel.size() < USAGE_BYTES) {
            return false;
        }
        ByteBuffer record = ByteBuffer.allocate(USAGE_BYTES);
        EntryFormat.readFully(channel, record, 0);
        record.flip();
        if (record.getInt() != USAGE_MAGIC || record.getInt() != DiskCache.FORMAT_VERSION) {
            return false;
        }
        bytes = record.getLong();
        entries = record.getLong();
        return bytes >= 0 && entries >= 0;
    }

    /** Writes the record at the start of the file. */
    void write(FileChannel channel) throws IOException {
        ByteBuffer record = ByteBuffer.allocate(USAGE_BYTES)
                .putInt(USAGE_MAGIC).putInt(DiskCache.FORMAT_VERSION).putLong(bytes).putLong(entries).flip();
        while (record.hasRemaining()) {
            channel.write(record, record.position());
        }
    }
}
