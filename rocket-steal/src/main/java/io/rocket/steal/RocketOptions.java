package io.rocket.steal;

import io.rocket.core.CacheSize;
import io.rocket.core.device.DeviceSpec;
import io.rocket.steal.cluster.ClusterOptions;
import io.rocket.steal.journal.JournalOptions;

import java.nio.file.Path;

/**
 * The runtime options of one node. Null cache sizes mean the defaults: the device's own default for L1 and
 * {@link #DEFAULT_HOST_CACHE} for L2, both capped at one slot per item. With {@link #cluster} set (and more than one
 * node), {@link Rocket#run} runs this node as one node of a cluster run; without it, on this node alone.
 *
 * @param device          which devices to use
 * @param hostCacheSize   L2 size (per node), or null
 * @param deviceCacheSize L1 size (per device), or null
 * @param hostThreads     CPU pool threads
 * @param ioThreads       I/O threads
 * @param concurrentJobs  pair jobs in flight per device
 * @param tileSize        leaf size of the pair-matrix quadtree
 * @param trace           Chrome trace file, or null
 * @param journal         where to journal the run's results, and whether to resume from there; or null
 * @param cluster         how this node joins a cluster run, or null to run on this node alone
 */
public record RocketOptions(DeviceSpec device, CacheSize hostCacheSize, CacheSize deviceCacheSize, int hostThreads,
                            int ioThreads, int concurrentJobs, int tileSize, Path trace, JournalOptions journal,
                            ClusterOptions cluster) {

    /** Default L2 size. */
    public static final CacheSize DEFAULT_HOST_CACHE = new CacheSize(1L << 30, -1);
    public static final int DEFAULT_CONCURRENT_JOBS = 64;
    public static final int DEFAULT_TILE_SIZE = 16;

    /** The options of a run on this node alone (no {@link #cluster}). */
    public RocketOptions(DeviceSpec device, CacheSize hostCacheSize, CacheSize deviceCacheSize, int hostThreads,
                         int ioThreads, int concurrentJobs, int tileSize, Path trace, JournalOptions journal) {
        this(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs, tileSize, trace, journal,
                null);
    }

    /** Defaults: one cpu device, all cores for the CPU pool, this node alone. */
    public static RocketOptions defaults() {
        return new RocketOptions(DeviceSpec.parse("cpu"), null, null, Runtime.getRuntime().availableProcessors(), 1,
                DEFAULT_CONCURRENT_JOBS, DEFAULT_TILE_SIZE, null, null, null);
    }

    /** Whether {@link Rocket#run} runs this node as one node of a cluster run (a {@link #cluster} of 2+ nodes). */
    public boolean isCluster() {
        return cluster != null && cluster.nodes() > 1;
    }

    public RocketOptions withDevice(DeviceSpec value) {
        return new RocketOptions(value, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs,
                tileSize, trace, journal, cluster);
    }

    public RocketOptions withCaches(CacheSize host, CacheSize device) {
        return new RocketOptions(this.device, host, device, hostThreads, ioThreads, concurrentJobs, tileSize, trace,
                journal, cluster);
    }

    public RocketOptions withThreads(int host, int io) {
        return new RocketOptions(device, hostCacheSize, deviceCacheSize, host, io, concurrentJobs, tileSize, trace,
                journal, cluster);
    }

    public RocketOptions withConcurrentJobs(int value) {
        return new RocketOptions(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, value, tileSize,
                trace, journal, cluster);
    }

    public RocketOptions withTileSize(int value) {
        return new RocketOptions(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs, value,
                trace, journal, cluster);
    }

    public RocketOptions withTrace(Path value) {
        return new RocketOptions(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs,
                tileSize, value, journal, cluster);
    }

    public RocketOptions withJournal(JournalOptions value) {
        return new RocketOptions(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs,
                tileSize, trace, value, cluster);
    }

    /** The same options as one node of the cluster run {@code value} describes; null runs on this node alone. */
    public RocketOptions withCluster(ClusterOptions value) {
        return new RocketOptions(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs,
                tileSize, trace, journal, value);
    }
}
