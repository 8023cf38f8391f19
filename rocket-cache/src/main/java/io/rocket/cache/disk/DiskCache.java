package io.rocket.cache.disk;

import io.rocket.core.RocketException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLockInterruptionException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The L4 level: a persistent cache of item bytes (parsed or preprocessed) in a local directory, so a second run
 * over the same inputs with the same job reads and parses nothing. One file per entry, named by its
 * {@link DiskKey}'s digest, holding a small header (magic, format version, payload length, CRC32C of the payload,
 * the key text) and then the payload. Within {@code maxBytes} the least recently used entries are evicted, by file
 * modification time, which a hit refreshes.
 *
 * <p><b>Concurrency.</b> Thread-safe, and several processes on one node may share a directory. A writer writes a
 * hidden temporary file, then renames it onto the entry name atomically, so readers see a whole entry or none; two
 * writers of one key both succeed and the last rename wins (the content is the same). Readers take no lock: an
 * entry evicted under a reader stays readable through its open file, and a vanished one is a miss. Every change to
 * the set of entries (the rename that publishes one, eviction, deleting a damaged one) happens under an exclusive
 * lock on {@code DIR/.lock} plus an in-process lock, because a file lock is held per process. Every entry is
 * verified on read (lengths, key text, checksum), so a torn or damaged file is a miss, never wrong data; that is why
 * nothing is fsynced.
 *
 * <p><b>Size.</b> The lock file also holds the directory's entry count and bytes, which the lock holder updates, so
 * every process knows the total without scanning and the limit holds across processes (the few bytes a process
 * killed between a rename and that update leaves uncounted are found at the next scan). Only when a write takes the
 * total over {@code maxBytes} does the writer rescan the directory and evict down to 90 % of the limit, so most
 * writes scan nothing. Opening rescans too.
 *
 * <p><b>Failures.</b> The cache never fails a run: an I/O error on read is a miss, on write the entry is dropped, and
 * either is logged (the first at WARN, later ones at DEBUG, so a full disk does not flood the log). A damaged entry
 * is logged at WARN, counted in {@link Stats#corrupt()}, deleted, and reported as a miss, so the caller loads the
 * item again and writes a good entry.
 *
 * <p>This class reads and writes the entry files and keeps the counters. The entries' layout and checks are in
 * {@code EntryFormat}; the lock, the usage record and eviction in {@code CacheDirectory}.
 */
public final class DiskCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DiskCache.class);

    /**
     * Version of the directory's layout (entries and usage record); part of every key, so entries of another layout
     * are never opened.
     */
    static final int FORMAT_VERSION = 1;
    /** The cap of {@link #defaultSize(Path)}: 64 GiB. */
    public static final long DEFAULT_SIZE_CAP = 64L << 30;

    private final Path dir;
    private final long maxBytes;
    private final CacheDirectory directory;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final LongAdder corrupt = new LongAdder();
    private final LongAdder bytesRead = new LongAdder();
    private final LongAdder bytesWritten = new LongAdder();
    private final AtomicBoolean warnedIo = new AtomicBoolean();
    private volatile boolean closed;

    /**
     * Counters of one {@link DiskCache} since it was opened, plus the directory's contents as last seen.
     *
     * @param hits         reads that returned an entry
     * @param misses       reads that returned -1, damaged entries included
     * @param writes       entries written (an entry larger than the limit is not written)
     * @param corrupt      damaged entries found (and deleted) by reads
     * @param evictions    entries this instance deleted to keep the directory within its limit
     * @param bytesRead    payload bytes returned by hits
     * @param bytesWritten payload bytes written
     * @param entries      entries in the directory, as last seen
     * @param bytes        bytes of entry files in the directory (headers included), as last seen
     */
    public record Stats(long hits, long misses, long writes, long corrupt, long evictions, long bytesRead,
                        long bytesWritten, long entries, long bytes) {
    }

    private DiskCache(Path dir, long maxBytes) {
        this.dir = dir;
        this.maxBytes = maxBytes;
        this.directory = new CacheDirectory(dir, maxBytes);
    }

    /**
     * Opens (creating it if needed) the cache in {@code dir}. Opening rescans the directory, which corrects the
     * shared usage record and evicts at once if the directory holds more than {@code maxBytes} (a previous run may
     * have had a larger limit).
     *
     * @throws RocketException if the directory cannot be created or written, or {@code maxBytes} is not positive
     */
    public static DiskCache open(Path dir, long maxBytes) {
        if (maxBytes <= 0) {
            throw new RocketException("disk cache size must be positive, got " + maxBytes + " bytes");
        }
        Path real;
        try {
            Files.createDirectories(dir);
            real = dir.toRealPath();
        } catch (IOException e) {
            throw new RocketException("disk cache directory " + dir + " cannot be created: " + describe(e), e);
        }
        // A probe write finds a read-only directory now, rather than as a warning at the first write.
        Path probe = real.resolve(CacheDirectory.tempName());
        try {
            Files.newByteChannel(probe, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
            Files.delete(probe);
        } catch (IOException e) {
            throw new RocketException("disk cache directory " + dir + " is not writable: " + describe(e), e);
        }
        DiskCache cache = new DiskCache(real, maxBytes);
        try {
            cache.directory.rescan();
        } catch (IOException e) {
            throw new RocketException("disk cache directory " + dir + " cannot be scanned: " + describe(e), e);
        }
        LOG.debug("disk cache {}: {}", real, cache.stats());
        return cache;
    }

    /**
     * A default for {@code maxBytes}: half of what the directory's file store offers, counting the space the cache
     * already holds as offered (so reruns keep their cache), capped at {@link #DEFAULT_SIZE_CAP} (64 GiB). Half,
     * because node-local scratch is shared with the job's own files and with other jobs on the node; a cap, because
     * more rarely adds hits for one data set while it makes each eviction scan and each stale cache larger.
     *
     * @param dir the cache directory; it need not exist yet (its nearest existing ancestor is measured)
     * @throws RocketException if the file store cannot be queried
     */
    public static long defaultSize(Path dir) {
        Path existing = dir.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            throw new RocketException("disk cache directory " + dir + " has no existing parent to size it by");
        }
        try {
            long usable = Files.getFileStore(existing).getUsableSpace();
            long held = 0;
            if (Files.isDirectory(dir)) {
                for (CacheDirectory.Entry e : CacheDirectory.listEntries(dir, false)) {
                    held += e.size();
                }
            }
            return Math.min((usable + held) / 2, DEFAULT_SIZE_CAP);
        } catch (IOException e) {
            throw new RocketException("disk cache directory " + dir + ": cannot query its file store: "
                    + describe(e), e);
        }
    }

    /** The cache directory (its real path). */
    public Path dir() {
        return dir;
    }

    /** The limit on the bytes of entry files in the directory. */
    public long maxBytes() {
        return maxBytes;
    }

    /**
     * Reads the payload of {@code key}'s entry into {@code target}, starting at its position; neither the position
     * nor the limit of {@code target} changes. A hit marks the entry most recently used. Takes no lock, except to
     * delete a damaged entry.
     *
     * @return the payload length, or -1 on a miss: no entry, a damaged one (which is then deleted), another key's
     *         entry under the same name, or a payload larger than {@code target.remaining()}. On a miss the bytes
     *         of {@code target} after its position are unspecified.
     */
    public long read(DiskKey key, ByteBuffer target) {
        ensureOpen();
        Path entry = dir.resolve(key.digest());
        long length;
        try (FileChannel channel = FileChannel.open(entry, StandardOpenOption.READ)) {
            length = EntryFormat.read(channel, key, target, dir);
        } catch (NoSuchFileException e) {
            length = -1;
        } catch (EntryFormat.CorruptEntry e) {
            corrupt.increment();
            misses.increment();
            LOG.warn("disk cache {}: entry of item {} is damaged ({}); deleting it, the item will be loaded again",
                    entry, key.label(), e.getMessage());
            deleteDamaged(entry);
            return -1;
        } catch (IOException e) {
            warnIo("reading the entry of item " + key.label(), e);
            length = -1;
        }
        if (length < 0) {
            misses.increment();
            return -1;
        }
        hits.increment();
        bytesRead.add(length);
        try {
            // Recency lives in the file system, so every process sharing the directory sees it.
            Files.setLastModifiedTime(entry, CacheDirectory.stamp());
        } catch (IOException e) {
            LOG.debug("disk cache {}: could not mark item {} used (evicted meanwhile?): {}", dir, key.label(),
                    e.toString());
        }
        return length;
    }

    /**
     * Stores {@code payload} (its bytes from position to limit; neither changes) as {@code key}'s entry, replacing
     * any entry of that key, then evicts least recently used entries if the directory is over its limit. A payload
     * whose entry would exceed the limit on its own is not stored. An I/O error is logged and the entry dropped.
     * The payload is written without the lock; only the rename and the usage update take it.
     */
    public void write(DiskKey key, ByteBuffer payload) {
        ensureOpen();
        long length = payload.remaining();
        long fileBytes = EntryFormat.fileBytes(key, length);
        if (fileBytes > maxBytes) {
            LOG.debug("disk cache {}: item {} needs {} bytes, more than the limit of {}; not stored", dir,
                    key.label(), fileBytes, maxBytes);
            return;
        }
        ByteBuffer head = EntryFormat.head(key, payload);
        ByteBuffer body = payload.duplicate();
        Path entry = dir.resolve(key.digest());
        Path temp = dir.resolve(CacheDirectory.tempName());
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                ByteBuffer[] parts = {head, body};
                while (head.hasRemaining() || body.hasRemaining()) {
                    channel.write(parts);
                }
            }
            // An explicit, strictly increasing stamp orders entries written within one clock tick of the file
            // system, so LRU order is the order of use.
            Files.setLastModifiedTime(temp, CacheDirectory.stamp());
            directory.publish(temp, entry, fileBytes);
        } catch (FileAlreadyExistsException e) {
            // A provider that does not replace on rename: the entry there has the same key, hence the same bytes.
            deleteQuietly(temp);
            return;
        } catch (IOException e) {
            warnIo("writing the entry of item " + key.label(), e);
            deleteQuietly(temp);
            return;
        }
        writes.increment();
        bytesWritten.add(length);
    }

    /** Whether an entry for {@code key} exists (one stat; it is not verified, and the answer may change at once). */
    public boolean contains(DiskKey key) {
        ensureOpen();
        return Files.exists(dir.resolve(key.digest()));
    }

    /** This instance's counters, and the directory's entries and bytes as last seen. */
    public Stats stats() {
        return new Stats(hits.sum(), misses.sum(), writes.sum(), corrupt.sum(), directory.evictions(),
                bytesRead.sum(), bytesWritten.sum(), directory.seenEntries(), directory.seenBytes());
    }

    /**
     * Marks the cache closed: further reads and writes throw {@link IllegalStateException}. The entries stay; there
     * is nothing else to release, as no file is held open between calls.
     */
    @Override
    public void close() {
        closed = true;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("disk cache " + dir + " is closed");
        }
    }

    private void deleteDamaged(Path entry) {
        try {
            directory.deleteDamaged(entry);
        } catch (IOException e) {
            warnIo("deleting damaged entry " + entry.getFileName(), e);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.debug("disk cache: cannot delete {}: {}", file, e.toString());
        }
    }

    private void warnIo(String what, IOException e) {
        if (e instanceof ClosedByInterruptException || e instanceof FileLockInterruptionException) {
            // The caller's thread is being stopped; the operation is simply abandoned.
            LOG.debug("disk cache {}: {} interrupted", dir, what);
        } else if (warnedIo.compareAndSet(false, true)) {
            LOG.warn("disk cache {}: {} failed: {} (further I/O errors of this cache are logged at debug level)",
                    dir, what, e.toString());
        } else {
            LOG.debug("disk cache {}: {} failed: {}", dir, what, e.toString());
        }
    }

    /** NIO messages are often the bare path; the exception's name says what went wrong. */
    private static String describe(IOException e) {
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
