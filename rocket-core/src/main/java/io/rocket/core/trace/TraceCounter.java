package io.rocket.core.trace;

import java.util.List;

/**
 * The counter tracks a node samples into its trace (about ten times a second), with the series each carries. The
 * values are cumulative counts since the start of the run, so a track's slope is a rate.
 */
public enum TraceCounter {
    /** The device caches (L1) of the node, summed over its devices. */
    L1_DEVICE_CACHE("L1 device cache", List.of("hits", "misses", "evictions"),
            "requests for an item in a device cache (L1), summed over the node's devices"),
    /** The node's host cache (L2). */
    L2_HOST_CACHE("L2 host cache", List.of("hits", "misses", "evictions"),
            "requests for an item in the node's host cache (L2); its requests are the misses of L1"),
    /** This node's requests to the distributed cache (L3); cluster runs with the distributed cache only. */
    L3_DISTRIBUTED_CACHE("L3 distributed cache", List.of("requests", "hits", "misses"),
            "this node's requests to the other nodes' host caches (L3), cluster runs with the distributed cache only; "
                    + "misses include timeouts"),
    /** Input bytes read per storage scheme, in MB (10^6 bytes); one series per scheme read. */
    INPUT_MB_READ("input MB read", List.of("file", "sftp", "s3", "https"),
            "megabytes (10^6 bytes) of input files read, one series per scheme actually read (`file`, `sftp`, `s3`, "
                    + "`http`, `https`); the slope is each storage's throughput");

    private final String trackName;
    private final List<String> series;
    private final String description;

    TraceCounter(String trackName, List<String> series, String description) {
        this.trackName = trackName;
        this.series = series;
        this.description = description;
    }

    /**
     * The track's name in the trace.
     *
     * @return the name shown on the timeline, e.g. {@code L2 host cache}
     */
    public String trackName() {
        return trackName;
    }

    /**
     * The series of the track (for {@link #INPUT_MB_READ}, the schemes that may appear).
     *
     * @return an unmodifiable list of series names, in the order the samples give them
     */
    public List<String> series() {
        return series;
    }

    /**
     * What the track counts (Markdown, one sentence).
     *
     * @return the description, for generated documentation of the trace
     */
    public String description() {
        return description;
    }
}
