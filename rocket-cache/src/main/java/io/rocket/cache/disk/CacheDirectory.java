package io.rocket.cache.disk;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.DirectoryStream;
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
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bookkeeping of a {@link DiskCache} directory: which entry files it holds, how many bytes they take, and which
 * go when it is over its limit. Every change to the set of entries (publishing one by a rename, evicting, deleting a
 * damaged one) happens here, under an exclusive lock on {@code DIR/.lock} plus an in-process lock, because a file
 * lock is held per process. The lock file also holds the {@link UsageRecord}, which the lock holder updates, so only
 * a write that takes the total over the limit rescans the directory; it then evicts the least recently used entries,
 * by modification time, down to {@link #TRIM_TARGET} of the limit.
 */
final class CacheDirectory {
    /** The cache's messages go to one logger, {@link DiskCache}'s, whichever part of it logs. */
    private static final Logger LOG = LoggerFactory.getLogger(DiskCache.class);

    /** Temporary files start with a dot so that scans (and {@code ls}) pass over them. */
    static final String TEMP_PREFIX = ".tmp-";
    static final String LOCK_FILE = ".lock";
    /** Eviction goes below the limit, so that the next few writes need no rescan. */
    static final double TRIM_TARGET = 0.9;
    /** A temporary file this old belongs to a writer that died; no live write takes that long. */
    static final Duration STALE_TEMP_AGE = Duration.ofHours(1);

    private static final ConcurrentHashMap<Path, ReentrantLock> DIR_LOCKS = new ConcurrentHashMap<>();
    private static final AtomicLong LAST_STAMP_MICROS = new AtomicLong();
    private static final long PID = ProcessHandle.current().pid();

    private final Path dir;
    private final Path lockFile;
    private final long maxBytes;
    private final ReentrantLock dirLock;
    private final LongAdder evictions = new LongAdder();
    private final AtomicBoolean warnedLock = new AtomicBoolean();
    /** The usage record as this instance last saw it, for {@link DiskCache#stats()}. */
    private volatile long seenEntries;
    private volatile long seenBytes;

    /**
     * @param dir      the directory, by its real path: the in-process lock is shared by every instance on it
     * @param maxBytes the limit on the bytes of entry files in it
     */
    CacheDirectory(Path dir, long maxBytes) {
        this.dir = dir;
        this.lockFile = dir.resolve(LOCK_FILE);
        this.maxBytes = maxBytes;
        this.dirLock = DIR_LOCKS.computeIfAbsent(dir, d -> new ReentrantLock());
    }

    /** Entries this instance evicted so far. */
    long evictions() {
        return evictions.sum();
    }

    /** The directory's entry count, as this instance last saw it. */
    long seenEntries() {
        return seenEntries;
    }

    /** The bytes of the directory's entry files, as this instance last saw them. */
    long seenBytes() {
        return seenBytes;
    }

    /** Rescans the directory under the lock: corrects the usage record, and evicts if it is over the limit. */
    void rescan() throws IOException {
        locked(this::rescan);
    }

    /**
     * Renames the finished temporary file {@code temp} onto {@code entry} (atomically, replacing any entry there) and
     * counts it, then rescans if that took the directory over its limit.
     *
     * @param fileBytes the size of the entry file
     */
    void publish(Path temp, Path entry, long fileBytes) throws IOException {
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
    }

    /** Deletes the damaged entry file {@code entry} if it is there, and uncounts it. */
    void deleteDamaged(Path entry) throws IOException {
        locked(usage -> {
            // A writer may have replaced the damaged file since it was read; deleting the new one costs a reload.
            long size = sizeOrZero(entry);
            if (Files.deleteIfExists(entry)) {
                usage.bytes -= size;
                usage.entries--;
            }
        });
    }

    /** What runs under the directory lock, given the usage record to read and update. */
    private interface Locked {
        void run(UsageRecord usage) throws IOException;
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
            UsageRecord usage = new UsageRecord();
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
    private void rescan(UsageRecord usage) throws IOException {
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

    /** An entry file as a scan found it. */
    record Entry(Path path, long size, FileTime modified) {
    }

    /** Entry files in {@code dir}; deletes stale temporary files on the way if {@code cleanUp}. */
    static List<Entry> listEntries(Path dir, boolean cleanUp) throws IOException {
        List<Entry> found = new ArrayList<>();
        FileTime staleBefore = FileTime.from(Instant.now().minus(STALE_TEMP_AGE));
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                boolean entry = EntryFormat.isEntryName(name);
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

    private static long sizeOrZero(Path entry) {
        try {
            return Files.readAttributes(entry, BasicFileAttributes.class).size();
        } catch (IOException e) {
            return 0;
        }
    }

    /** Unique among live writers: pid and thread id separate writers, the random part separates attempts. */
    static String tempName() {
        return TEMP_PREFIX + PID + "-" + Thread.currentThread().getId() + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong());
    }

    /**
     * Now, in microseconds (what file systems keep), never twice the same in this process: an entry's recency, set
     * when it is written and when it is read.
     */
    static FileTime stamp() {
        Instant now = Instant.now();
        long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
        return FileTime.from(LAST_STAMP_MICROS.accumulateAndGet(micros, (last, t) -> Math.max(last + 1, t)),
                TimeUnit.MICROSECONDS);
    }
}
