package io.rocket.results.journal;

import io.rocket.core.RocketException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The exclusive lock a run holds on its result store or run journal for the whole run, so that a second run on the
 * same directory is refused rather than interleaving its records with the first's: {@value #FILE} in the directory,
 * locked with {@link FileChannel#tryLock()} (a POSIX lock on Unix) and holding the holder's pid, host and start
 * time for the refusal. The operating system releases the lock when the process ends, however it ends, so a lock
 * file left by a run that died blocks nothing. A file lock is held per process, so the locks this JVM holds are
 * also kept in a map: a second opening in the same JVM is refused the same way (and never opens the file, whose
 * closing would release the process's lock). On a network file system the lock works where the mount supports
 * POSIX locks (NFS with its lock manager, Lustre mounted with {@code flock}); where it does not, the run goes on
 * unlocked with a warning.
 */
public final class StoreLock implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StoreLock.class);
    /** The lock file's name in the directory. */
    public static final String FILE = ".lock";
    private static final Map<Path, String> HELD = new ConcurrentHashMap<>();
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;
    private boolean released;

    private StoreLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock on {@code dir} (created when missing) for this process, or refuses.
     *
     * @param dir    the store's or journal's directory
     * @param option how the refusal names it ({@code --store}, {@code --journal})
     * @return the lock, to {@link #close} at the end of the run
     * @throws RocketException in one line naming the holder when another run holds it, or when the lock file cannot
     *                         be written
     */
    public static StoreLock acquire(Path dir, String option) {
        Path file = key(dir);
        String holder = holderText();
        if (HELD.putIfAbsent(file, holder) != null) {
            throw inUse(dir, option, HELD.get(file));
        }
        FileChannel channel = null;
        try {
            Files.createDirectories(dir);
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (IOException e) { // no locks on this file system (an NFS mount without its lock manager)
                LOG.warn("{} {}: cannot lock {} ({}); make sure no other run uses it at the same time", option, dir,
                        file, e.getMessage());
                return new StoreLock(file, channel, null);
            }
            if (lock == null) {
                String text = read(channel);
                channel.close();
                HELD.remove(file);
                throw inUse(dir, option, text);
            }
            channel.truncate(0);
            ByteBuffer bytes = StandardCharsets.UTF_8.encode(holder);
            while (bytes.hasRemaining()) {
                channel.write(bytes, channel.size());
            }
            channel.force(false);
            return new StoreLock(file, channel, lock);
        } catch (IOException e) {
            closeQuietly(channel);
            HELD.remove(file);
            throw new RocketException(option + " " + dir + ": cannot write the lock file " + file + ": "
                    + e.getMessage(), e);
        } catch (RuntimeException e) {
            HELD.remove(file);
            throw e;
        }
    }

    /**
     * Refuses, as {@link #acquire} would, when another run holds the lock on {@code dir}; takes nothing. For the
     * checks made before any output is opened.
     *
     * @throws RocketException in one line naming the holder
     */
    static void check(Path dir, String option) {
        Path file = key(dir);
        String holder = HELD.get(file);
        if (holder != null) {
            throw inUse(dir, option, holder);
        }
        if (!Files.isRegularFile(file)) {
            return;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw inUse(dir, option, read(channel));
            }
            lock.release();
        } catch (IOException | OverlappingFileLockException e) {
            // Cannot tell here: acquire() decides.
        }
    }

    /** Releases the lock; the file stays (removing it could race with a run that has just opened it). */
    @Override
    public synchronized void close() {
        if (released) {
            return;
        }
        released = true;
        try {
            if (lock != null) {
                lock.release();
            }
        } catch (IOException e) {
            LOG.warn("releasing {}: {}", file, e.toString());
        } finally {
            closeQuietly(channel);
            HELD.remove(file);
        }
    }

    private static Path key(Path dir) {
        return dir.toAbsolutePath().normalize().resolve(FILE);
    }

    private static RocketException inUse(Path dir, String option, String holderText) {
        String holder = describe(holderText);
        return new RocketException(option + " " + dir + ": in use by another run" + (holder.isEmpty() ? "" : " ("
                + holder + ")") + "; wait for it to end, or give another directory");
    }

    /** "pid 1234 on host n1, since 2026-11-27 14:02:11 UTC" from the lock file's lines, what of it there is. */
    private static String describe(String text) {
        String pid = null;
        String host = null;
        String since = null;
        for (String line : text.split("\n")) {
            int space = line.indexOf(' ');
            if (space < 0) {
                continue;
            }
            String value = line.substring(space + 1).strip();
            switch (line.substring(0, space)) {
                case "pid" -> pid = value;
                case "host" -> host = value;
                case "since" -> since = value;
                default -> {
                }
            }
        }
        StringBuilder b = new StringBuilder();
        if (pid != null) {
            b.append("pid ").append(pid);
        }
        if (host != null) {
            b.append(b.isEmpty() ? "" : " ").append("on host ").append(host);
        }
        if (since != null) {
            b.append(b.isEmpty() ? "" : ", ").append("since ").append(since);
        }
        return b.toString();
    }

    private static String holderText() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = System.getenv().getOrDefault("HOSTNAME", "unknown");
        }
        return "pid " + ProcessHandle.current().pid() + "\nhost " + host + "\nsince " + TIME.format(Instant.now())
                + "\n";
    }

    private static String read(FileChannel channel) {
        try {
            ByteBuffer bytes = ByteBuffer.allocate(4096);
            long at = 0;
            while (bytes.hasRemaining()) {
                int n = channel.read(bytes, at);
                if (n <= 0) {
                    break;
                }
                at += n;
            }
            bytes.flip();
            return StandardCharsets.UTF_8.decode(bytes).toString();
        } catch (IOException e) {
            return "";
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing held through it any more
            }
        }
    }
}
