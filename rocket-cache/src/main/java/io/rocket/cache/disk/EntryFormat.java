package io.rocket.cache.disk;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The layout of one {@link DiskCache} entry file, and the checks a read makes of it. An entry is a header (magic,
 * format version, payload length, CRC32C of the payload, key text length), the key text, then the payload; its file
 * is named by its key's digest. Every field is checked on read, so a torn or damaged file is reported as
 * {@link CorruptEntry}, never returned as data.
 */
final class EntryFormat {
    /** The cache's messages go to one logger, {@link DiskCache}'s, whichever part of it logs. */
    private static final Logger LOG = LoggerFactory.getLogger(DiskCache.class);

    /** "RKDC". */
    static final int MAGIC = 0x524B4443;
    /** magic, version (int), payload length (long), payload CRC32C (int), key text length (int). */
    static final int HEADER_BYTES = 24;

    private EntryFormat() {
    }

    /** The size of {@code key}'s entry file with a payload of {@code payloadLength} bytes. */
    static long fileBytes(DiskKey key, long payloadLength) {
        return HEADER_BYTES + (long) key.textBytes().length + payloadLength;
    }

    /**
     * The header and key text that precede {@code payload} (its bytes from position to limit) in {@code key}'s
     * entry, ready to be written. Neither the position nor the limit of {@code payload} changes.
     */
    static ByteBuffer head(DiskKey key, ByteBuffer payload) {
        byte[] text = key.textBytes();
        CRC32C checksum = new CRC32C();
        checksum.update(payload.duplicate());
        return ByteBuffer.allocate(HEADER_BYTES + text.length)
                .putInt(MAGIC).putInt(DiskCache.FORMAT_VERSION).putLong(payload.remaining())
                .putInt((int) checksum.getValue()).putInt(text.length).put(text).flip();
    }

    /**
     * Reads the payload of the entry in {@code channel} into {@code target}, starting at its position; neither the
     * position nor the limit of {@code target} changes.
     *
     * @param dir the cache directory, for log messages
     * @return the payload length, or -1 when the entry is another key's (same name, other key text) or its payload
     *         is larger than {@code target.remaining()}
     * @throws CorruptEntry if the entry is damaged: truncated, a bad header, or a payload that fails its checksum
     * @throws IOException  if reading fails
     */
    static long read(FileChannel channel, DiskKey key, ByteBuffer target, Path dir) throws IOException {
        long size = channel.size();
        if (size < HEADER_BYTES) {
            throw new CorruptEntry("truncated to " + size + " bytes");
        }
        byte[] expected = key.textBytes();
        ByteBuffer head = ByteBuffer.allocate((int) Math.min(size, HEADER_BYTES + (long) expected.length));
        readFully(channel, head, 0);
        head.flip();
        int magic = head.getInt();
        int version = head.getInt();
        long payloadLength = head.getLong();
        int crc = head.getInt();
        int keyLength = head.getInt();
        if (magic != MAGIC) {
            throw new CorruptEntry(String.format("bad magic 0x%08x", magic));
        }
        if (version != DiskCache.FORMAT_VERSION) {
            throw new CorruptEntry("format version " + version + " under a version " + DiskCache.FORMAT_VERSION
                    + " name");
        }
        if (keyLength < 0 || payloadLength < 0 || payloadLength > size
                || HEADER_BYTES + (long) keyLength + payloadLength != size) {
            throw new CorruptEntry("a file of " + size + " bytes cannot hold a key of " + keyLength
                    + " bytes and a payload of " + payloadLength + " bytes");
        }
        if (keyLength != expected.length
                || !Arrays.equals(head.array(), HEADER_BYTES, head.limit(), expected, 0, expected.length)) {
            LOG.debug("disk cache {}: entry {} belongs to another key than item {}", dir, key.digest(), key.label());
            return -1;
        }
        if (payloadLength > target.remaining()) {
            LOG.debug("disk cache {}: entry of item {} holds {} bytes, more than the {} the buffer has room for",
                    dir, key.label(), payloadLength, target.remaining());
            return -1;
        }
        int start = target.position();
        ByteBuffer payload = target.duplicate();
        payload.limit(start + (int) payloadLength);
        readFully(channel, payload, HEADER_BYTES + (long) keyLength);
        payload.position(start);
        CRC32C checksum = new CRC32C();
        checksum.update(payload);
        if ((int) checksum.getValue() != crc) {
            throw new CorruptEntry("payload checksum mismatch");
        }
        return payloadLength;
    }

    /**
     * Fills {@code into} from {@code channel} at {@code position}.
     *
     * @throws CorruptEntry if the file ends first
     */
    static void readFully(FileChannel channel, ByteBuffer into, long position) throws IOException {
        while (into.hasRemaining()) {
            int n = channel.read(into, position);
            if (n < 0) {
                throw new CorruptEntry("truncated at byte " + position);
            }
            position += n;
        }
    }

    /** Entry names are SHA-256 digests in lower-case hex. */
    static boolean isEntryName(String name) {
        if (name.length() != 64) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /** A damaged entry. Stackless: it is an expected outcome, reported by its message. */
    static final class CorruptEntry extends IOException {
        CorruptEntry(String reason) {
            super(reason);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
