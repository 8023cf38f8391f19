package io.rocket.cache.disk;

import io.rocket.core.RocketException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.FileLockInterruptionException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;

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
 */
public final class DiskCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DiskCache.class);

    /** Version of the entry layout; part of every key, so entries of another layout are never opened. */
    static final int FORMAT_VERSION = 1;
    /** "RKDC". */
    static final int MAGIC = 0x524B4443;
    /** magic, version (int), payload length (long), payload CRC32C (int), key text length (int). */
    static final int HEADER_BYTES = 24;
    /** "RKDU": the lock file's usage record, magic, version (int), entry bytes (long), entry count (long). */
    static final int USAGE_MAGIC = 0x524B4455;
    static final int USAGE_BYTES = 24;
    /** Temporary files start with a dot so that scans (and {@code ls}) pass over them. */
    static final String TEMP_PREFIX = ".tmp-";
    static final String LOCK_FILE = ".lock";
    /** Eviction goes below the limit, so that the next few writes need no rescan. */
    static final double TRIM_TARGET = 0.9;
    /** The cap of {@link #defaultSize(Path)}: 64 GiB. */
    public static final long DEFAULT_SIZE_CAP = 64L << 30;
    /** A temporary file this old belongs to a writer that died; no live write takes that long. */
    static final Duration STALE_TEMP_AGE = Duration.ofHours(1);

    private static final ConcurrentHashMap<Path, ReentrantLock> DIR_LOCKS = new ConcurrentHashMap<>();
    private static final AtomicLong LAST_STAMP_MICROS = new AtomicLong();
    private static final long PID = ProcessHandle.current().pid();

    private final Path dir;
    private final Path lockFile;
    private final long maxBytes;
    private final ReentrantLock dirLock;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final LongAdder corrupt = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    private final LongAdder bytesRead = new LongAdder();
    private final LongAdder bytesWritten = new LongAdder();
    private final AtomicBoolean warnedIo = new AtomicBoolean();
    private final AtomicBoolean warnedLock = new AtomicBoolean();
    /** The usage record as this instance last saw it, for {@link #stats()}. */
    private volatile long seenEntries;
    private volatile long seenBytes;
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
        this.lockFile = dir.resolve(LOCK_FILE);
        this.maxBytes = maxBytes;
        this.dirLock = DIR_LOCKS.computeIfAbsent(dir, d -> new ReentrantLock());
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
        Path probe = real.resolve(tempName());
        try {
            Files.newByteChannel(probe, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
            Files.delete(probe);
        } catch (IOException e) {
            throw new RocketException("disk cache directory " + dir + " is not writable: " + describe(e), e);
        }
        DiskCache cache = new DiskCache(real, maxBytes);
        try {
            cache.locked(cache::rescan);
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
                for (Entry e : listEntries(dir, false)) {
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
            length = readEntry(channel, key, target);
        } catch (NoSuchFileException e) {
            length = -1;
        } catch (CorruptEntry e) {
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
            Files.setLastModifiedTime(entry, stamp());
        } catch (IOException e) {
            LOG.debug("disk cache {}: could not mark item {} used (evicted meanwhile?): {}", dir, key.label(),
                    e.toString());
        }
        return length;
    }

    private long readEntry(FileChannel channel, DiskKey key, ByteBuffer target) throws IOException {
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
        if (version != FORMAT_VERSION) {
            throw new CorruptEntry("format version " + version + " under a version " + FORMAT_VERSION + " name");
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

    private static void readFully(FileChannel channel, ByteBuffer into, long position) throws IOException {
        while (into.hasRemaining()) {
            int n = channel.read(into, position);
            if (n < 0) {
                throw new CorruptEntry("truncated at byte " + position);
            }
            position += n;
        }
    }

    /**
     * Stores {@code payload} (its bytes from position to limit; neither changes) as {@code key}'s entry, replacing
     * any entry of that key, then evicts least recently used entries if the directory is over its limit. A payload
     * whose entry would exceed the limit on its own is not stored. An I/O error is logged and the entry dropped.
     * The payload is written without the lock; only the rename and the usage update take it.
     */
    public void write(DiskKey key, ByteBuffer payload) {
        ensureOpen();
        byte[] text = key.textBytes();
        long length = payload.remaining();
        long fileBytes = HEADER_BYTES + (long) text.length + length;
        if (fileBytes > maxBytes) {
            LOG.debug("disk cache {}: item {} needs {} bytes, more than the limit of {}; not stored", dir,
                    key.label(), fileBytes, maxBytes);
            return;
        }
        ByteBuffer body = payload.duplicate();
        CRC32C checksum = new CRC32C();
        checksum.update(body);
        body.position(payload.position());
        ByteBuffer head = ByteBuffer.allocate(HEADER_BYTES + text.length)
                .putInt(MAGIC).putInt(FORMAT_VERSION).putLong(length).putInt((int) checksum.getValue())
                .putInt(text.length).put(text).flip();
        Path entry = dir.resolve(key.digest());
        Path temp = dir.resolve(tempName());
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
            Files.setLastModifiedTime(temp, stamp());
            locked(usage -> {
                // Under the lock no other rename or delete can come between this stat and the rename.
                long replaced = sizeOrZero(entry);
                Files.move(temp, entry, StandardCopyOption.ATOMIC_MOVE);
                usage.bytes += fileBytes - replaced;
                usage.entries += replaced == 0 ? 1 : 0;
                if (usage.bytes > maxBytes) {
                    rescan(usage);
                }
            });
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
        return new Stats(hits.sum(), misses.sum(), writes.sum(), corrupt.sum(), evictions.sum(), bytesRead.sum(),
                bytesWritten.sum(), seenEntries, seenBytes);
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

    /** What runs under the directory lock, given the usage record to read and update. */
    private interface Locked {
        void run(Usage usage) throws IOException;
    }

    /**
     * Runs {@code action} under the in-process lock and the file lock, with the usage record read from the lock
     * file before (rescanning if it is missing or unreadable) and written back after, whatever the action changed.
     */
    private void locked(Locked action) throws IOException {
        dirLock.lock();
        // The channel is opened and closed under dirLock, because closing any channel to a file releases this
        // process's lock on it; and per call, because an interrupt closes a channel for good.
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
             FileLock ignored = lock(channel)) {
            Usage usage = new Usage();
            if (!usage.read(channel)) {
                rescan(usage);
            }
            try {
                action.run(usage);
            } finally {
                usage.write(channel);
                seenEntries = usage.entries;
                seenBytes = usage.bytes;
            }
        } finally {
            dirLock.unlock();
        }
    }

    private FileLock lock(FileChannel channel) throws IOException {
        try {
            return channel.lock();
        } catch (IOException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw e;
            }
            // Without the file lock, processes may evict at once and so evict more than needed, and the usage
            // record may miss an update until the next scan; every delete is still safe, so go on.
            if (warnedLock.compareAndSet(false, true)) {
                LOG.warn("disk cache {}: cannot lock {} ({}); going on without it", dir, lockFile, e.toString());
            }
            return null;
        }
    }

    /**
     * Sets {@code usage} from a directory scan and, if that is over the limit, evicts least recently used entries
     * down to {@link #TRIM_TARGET} of it. The most recently used entry is never evicted: it may be the one just
     * written, which fits the limit on its own.
     */
    private void rescan(Usage usage) throws IOException {
        List<Entry> found = listEntries(dir, true);
        long total = 0;
        for (Entry e : found) {
            total += e.size();
        }
        long count = found.size();
        if (total > maxBytes) {
            found.sort(Comparator.comparing(Entry::modified).thenComparing(e -> e.path().getFileName().toString()));
            long goal = (long) (maxBytes * TRIM_TARGET);
            int evicted = 0;
            for (int i = 0; i < found.size() - 1 && total > goal; i++) {
                Entry e = found.get(i);
                if (Files.deleteIfExists(e.path())) {
                    evicted++;
                }
                total -= e.size();
                count--;
            }
            evictions.add(evicted);
            LOG.debug("disk cache {}: evicted {} entries, {} entries and {} bytes left", dir, evicted, count, total);
        }
        usage.bytes = total;
        usage.entries = count;
    }

    /** Entry files in {@code dir}; deletes stale temporary files on the way if {@code cleanUp}. */
    private static List<Entry> listEntries(Path dir, boolean cleanUp) throws IOException {
        List<Entry> found = new ArrayList<>();
        FileTime staleBefore = FileTime.from(Instant.now().minus(STALE_TEMP_AGE));
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                boolean entry = isEntryName(name);
                boolean temp = name.startsWith(TEMP_PREFIX);
                if (!entry && !temp) {
                    continue;
                }
                BasicFileAttributes attributes;
                try {
                    attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (NoSuchFileException e) {
                    continue;
                }
                if (!attributes.isRegularFile()) {
                    continue;
                }
                if (entry) {
                    found.add(new Entry(file, attributes.size(), attributes.lastModifiedTime()));
                } else if (cleanUp && attributes.lastModifiedTime().compareTo(staleBefore) < 0) {
                    LOG.debug("disk cache {}: deleting stale temporary file {}", dir, name);
                    Files.deleteIfExists(file);
                }
            }
        }
        return found;
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

    private void deleteDamaged(Path entry) {
        try {
            locked(usage -> {
                // A writer may have replaced the damaged file since it was read; deleting the new one costs a reload.
                long size = sizeOrZero(entry);
                if (Files.deleteIfExists(entry)) {
                    usage.bytes -= size;
                    usage.entries--;
                }
            });
        } catch (IOException e) {
            warnIo("deleting damaged entry " + entry.getFileName(), e);
        }
    }

    private static long sizeOrZero(Path entry) {
        try {
            return Files.readAttributes(entry, BasicFileAttributes.class).size();
        } catch (IOException e) {
            return 0;
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

    /** Unique among live writers: pid and thread id separate writers, the random part separates attempts. */
    static String tempName() {
        return TEMP_PREFIX + PID + "-" + Thread.currentThread().getId() + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong());
    }

    /** Now, in microseconds (what file systems keep), never twice the same in this process. */
    static FileTime stamp() {
        Instant now = Instant.now();
        long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
        return FileTime.from(LAST_STAMP_MICROS.accumulateAndGet(micros, (last, t) -> Math.max(last + 1, t)),
                TimeUnit.MICROSECONDS);
    }

    /** NIO messages are often the bare path; the exception's name says what went wrong. */
    private static String describe(IOException e) {
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private record Entry(Path path, long size, FileTime modified) {
    }

    /** The directory's entry bytes and count, as kept in the lock file. */
    private static final class Usage {
        long bytes;
        long entries;

        /** Reads the record; false if it is absent or not one (a new directory, or damage). */
        boolean read(FileChannel channel) throws IOException {
            if (channel.size() < USAGE_BYTES) {
                return false;
            }
            ByteBuffer record = ByteBuffer.allocate(USAGE_BYTES);
            readFully(channel, record, 0);
            record.flip();
            if (record.getInt() != USAGE_MAGIC || record.getInt() != FORMAT_VERSION) {
                return false;
            }
            bytes = record.getLong();
            entries = record.getLong();
            return bytes >= 0 && entries >= 0;
        }

        void write(FileChannel channel) throws IOException {
            ByteBuffer record = ByteBuffer.allocate(USAGE_BYTES)
                    .putInt(USAGE_MAGIC).putInt(FORMAT_VERSION).putLong(bytes).putLong(entries).flip();
            while (record.hasRemaining()) {
                channel.write(record, record.position());
            }
        }
    }

    /** A damaged entry. Stackless: it is an expected outcome, reported by its message. */
    private static final class CorruptEntry extends IOException {
        CorruptEntry(String reason) {
            super(reason);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
