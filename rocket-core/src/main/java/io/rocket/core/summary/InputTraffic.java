package io.rocket.core.summary;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a node read from its input files, per URI scheme ({@code file}, {@code sftp}, {@code s3}, {@code https}):
 * files, bytes and the time spent reading them. Remote storage is usually what bounds a run's loading, so the summary
 * and the trace show each scheme's throughput apart. Updated by the I/O threads without allocating.
 */
public final class InputTraffic {
    private final Map<String, Counters> byScheme = new ConcurrentHashMap<>();

    /** A record of no reads yet. */
    public InputTraffic() {
    }

    /**
     * The scheme of the file system that serves {@code path}, lower case: "file" for local files; S3 through a
     * custom endpoint ({@code s3x}) counts as "s3".
     *
     * @param path a path of any installed file system, never null
     * @return the lower-case scheme, never null
     */
    public static String scheme(Path path) {
        String s = path.getFileSystem().provider().getScheme().toLowerCase(Locale.ROOT);
        return s.equals("s3x") ? "s3" : s;
    }

    /**
     * Counts one file of {@code bytes} read in {@code nanos}. Thread-safe; allocates only on a scheme's first file.
     *
     * @param scheme the file's scheme, as {@link #scheme(Path)} returns it
     * @param bytes the number of bytes read
     * @param nanos the time spent reading the file, in nanoseconds
     */
    public void record(String scheme, long bytes, long nanos) {
        Counters c = byScheme.get(scheme);
        if (c == null) {
            c = byScheme.computeIfAbsent(scheme, s -> new Counters());
        }
        c.files.increment();
        c.bytes.add(bytes);
        c.nanos.add(nanos);
    }

    /**
     * Bytes read so far per scheme, sorted by scheme (for the trace's counter track).
     *
     * @return a new map from scheme to bytes read, in scheme order; a snapshot, not updated afterwards
     */
    public Map<String, Long> bytesByScheme() {
        Map<String, Long> out = new TreeMap<>();
        byScheme.forEach((scheme, c) -> out.put(scheme, c.bytes.sum()));
        return out;
    }

    /**
     * The figures per scheme for a run of {@code wallSeconds}.
     *
     * @param wallSeconds the run's wall time in seconds; 0 or less leaves the run throughput at 0
     * @return a new map from scheme to its figures, in scheme order
     */
    public Map<String, Figures> figures(double wallSeconds) {
        Map<String, Figures> out = new TreeMap<>();
        byScheme.forEach((scheme, c) -> {
            long bytes = c.bytes.sum();
            double seconds = c.nanos.sum() / 1e9;
            out.put(scheme, new Figures(c.files.sum(), bytes, seconds,
                    wallSeconds > 0 ? bytes / 1e6 / wallSeconds : 0, seconds > 0 ? bytes / 1e6 / seconds : 0));
        });
        return out;
    }

    /**
     * One scheme's figures.
     *
     * @param files           files read
     * @param bytes           bytes read
     * @param readSeconds     time the I/O threads spent reading them, summed over threads
     * @param mbPerSecond     bytes over the run's wall time (MB = 10^6 bytes): what the run got from this storage
     * @param readMbPerSecond bytes over the reading time: what one read stream got, so latency shows as a low figure
     */
    public record Figures(long files, long bytes, @JsonProperty("read_seconds") double readSeconds,
                          @JsonProperty("mb_per_s") double mbPerSecond,
                          @JsonProperty("read_mb_per_s") double readMbPerSecond) {

        /** Nothing read. */
        public static final Figures NONE = new Figures(0, 0, 0, 0, 0);

        /**
         * The sum of two nodes' figures over the same wall time.
         *
         * @param o the other node's figures, never null
         * @param wallSeconds the run's wall time in seconds, to recompute the run throughput from the summed bytes
         * @return new figures with files, bytes and read seconds summed and both throughputs recomputed
         */
        public Figures plus(Figures o, double wallSeconds) {
            long b = bytes + o.bytes;
            double s = readSeconds + o.readSeconds;
            return new Figures(files + o.files, b, s, wallSeconds > 0 ? b / 1e6 / wallSeconds : 0,
                    s > 0 ? b / 1e6 / s : 0);
        }
    }

    private static final class Counters {
        final LongAdder files = new LongAdder();
        final LongAdder bytes = new LongAdder();
        final LongAdder nanos = new LongAdder();
    }
}
