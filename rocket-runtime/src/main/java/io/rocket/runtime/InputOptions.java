package io.rocket.runtime;

import java.nio.file.Path;

/**
 * How a node gets its inputs: the read-ahead budget, and the persistent disk cache (L4) that keeps loaded items
 * across runs.
 *
 * @param readAheadBytes  bytes of input files read ahead of the schedule; 0 turns read-ahead off
 * @param diskCache       the disk cache's directory, or null for none
 * @param diskCacheBytes  the disk cache's size limit; 0 for the default (see the disk cache)
 * @param job             what makes two runs the same job for the disk cache: the application and its options (the
 *                        command line's job options); null for the application's class name
 */
public record InputOptions(long readAheadBytes, Path diskCache, long diskCacheBytes, String job) {

    /** The default read-ahead budget. */
    public static final long DEFAULT_READ_AHEAD = 256L << 20;

    /** Read-ahead at its default budget, no disk cache. */
    public static final InputOptions DEFAULT = new InputOptions(DEFAULT_READ_AHEAD, null, 0, null);

    /**
     * Checks that the sizes are not negative.
     *
     * @param readAheadBytes bytes of input files read ahead of the schedule; 0 turns read-ahead off
     * @param diskCache      the disk cache's directory, or null for none
     * @param diskCacheBytes the disk cache's size limit; 0 for the default
     * @param job            what makes two runs the same job for the disk cache, or null
     */
    public InputOptions {
        if (readAheadBytes < 0 || diskCacheBytes < 0) {
            throw new IllegalArgumentException("read-ahead and disk cache sizes must not be negative");
        }
    }

    /**
     * These options with another read-ahead budget.
     *
     * @param bytes bytes of input files read ahead; 0 turns read-ahead off
     * @return the changed options
     */
    public InputOptions withReadAhead(long bytes) {
        return new InputOptions(bytes, diskCache, diskCacheBytes, job);
    }

    /**
     * These options with a disk cache.
     *
     * @param dir         the disk cache's directory, or null for none
     * @param bytes       its size limit; 0 for the default
     * @param jobIdentity what makes two runs the same job (see {@link #job})
     * @return the changed options
     */
    public InputOptions withDiskCache(Path dir, long bytes, String jobIdentity) {
        return new InputOptions(readAheadBytes, dir, bytes, jobIdentity);
    }
}
