package io.rocket.runtime;

import io.rocket.steal.ScheduleOrder;
import io.rocket.core.CacheSize;
import io.rocket.core.device.DeviceSpec;
import io.rocket.cluster.ClusterOptions;
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
 * @param inputs          read-ahead and the disk cache; null for {@link InputOptions#DEFAULT}
 * @param order           the order of the pair matrix on a node; null for {@link ScheduleOrder#BLOCKED}
 */
public record RocketOptions(DeviceSpec device, CacheSize hostCacheSize, CacheSize deviceCacheSize, int hostThreads,
                            int ioThreads, int concurrentJobs, int tileSize, Path trace, JournalOptions journal,
                            ClusterOptions cluster, InputOptions inputs, ScheduleOrder order) {

    /** Default L2 size. */
    public static final CacheSize DEFAULT_HOST_CACHE = new CacheSize(1L << 30, -1);
    public static final int DEFAULT_CONCURRENT_JOBS = 64;
    public static final int DEFAULT_TILE_SIZE = 16;
    /** {@link #ioThreads} to be chosen by the runtime: more for remote inputs, whose reads wait on the network. */
    public static final int AUTO_IO_THREADS = 0;
    /** I/O threads chosen for local inputs. */
    public static final int LOCAL_IO_THREADS = 2;
    /** I/O threads chosen for remote inputs (sftp, s3, https): enough reads in flight to hide their latency. */
    public static final int REMOTE_IO_THREADS = 8;

    public RocketOptions {
        inputs = inputs == null ? InputOptions.DEFAULT : inputs;
        order = order == null ? ScheduleOrder.BLOCKED : order;
    }

    /** The options of a run in the default order. */
    public RocketOptions(DeviceSpec device, CacheSize hostCacheSize, CacheSize deviceCacheSize, int hostThreads,
                         int ioThreads, int concurrentJobs, int tileSize, Path trace, JournalOptions journal,
                         ClusterOptions cluster, InputOptions inputs) {
        this(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs, tileSize, trace, journal,
                cluster, inputs, null);
    }

    /** The options of a run with {@link InputOptions#DEFAULT} inputs. */
    public RocketOptions(DeviceSpec device, CacheSize hostCacheSize, CacheSize deviceCacheSize, int hostThreads,
                         int ioThreads, int concurrentJobs, int tileSize, Path trace, JournalOptions journal,
                         ClusterOptions cluster) {
        this(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs, tileSize, trace, journal,
                cluster, null);
    }

    /** The options of a run on this node alone (no {@link #cluster}). */
    public RocketOptions(DeviceSpec device, CacheSize hostCacheSize, CacheSize deviceCacheSize, int hostThreads,
                         int ioThreads, int concurrentJobs, int tileSize, Path trace, JournalOptions journal) {
        this(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs, tileSize, trace, journal,
                null);
    }

    /** Defaults: one cpu device, all cores for the CPU pool, this node alone. */
    public static RocketOptions defaults() {
        return new RocketOptions(DeviceSpec.parse("cpu"), null, null, Runtime.getRuntime().availableProcessors(),
                AUTO_IO_THREADS, DEFAULT_CONCURRENT_JOBS, DEFAULT_TILE_SIZE, null, null, null, null, null);
    }

    /** Whether {@link Rocket#run} runs this node as one node of a cluster run (a {@link #cluster} of 2+ nodes). */
    public boolean isCluster() {
        return cluster != null && cluster.nodes() > 1;
    }

    public RocketOptions withDevice(DeviceSpec value) {
        return new RocketOptions(value, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs,
                tileSize, trace, journal, cluster, inputs, order);
    }

    public RocketOptions withCaches(CacheSize host, CacheSize device) {
        return new RocketOptions(this.device, host, device, hostThreads, ioThreads, concurrentJobs, tileSize, trace,
                journal, cluster, inputs, order);
    }

    public RocketOptions withThreads(int host, int io) {
        return new RocketOptions(device, hostCacheSize, deviceCacheSize, host, io, concurrentJobs, tileSize, trace,
                journal, cluster, inputs, order);
    }

    public RocketOptions withConcurrentJobs(int value) {
        return new RocketOptions(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, value, tileSize,
                trace, journal, cluster, inputs, order);
    }

    public RocketOptions withTileSize(int value) {
        return new RocketOptions(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs, value,
                trace, journal, cluster, inputs, order);
    }

    public RocketOptions withTrace(Path value) {
        return new RocketOptions(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs,
                tileSize, value, journal, cluster, inputs, order);
    }

    public RocketOptions withJournal(JournalOptions value) {
        return new RocketOptions(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs,
                tileSize, trace, value, cluster, inputs, order);
    }

    public RocketOptions withInputs(InputOptions value) {
        return new RocketOptions(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs,
                tileSize, trace, journal, cluster, value, order);
    }

    /** The same options as one node of the cluster run {@code value} describes; null runs on this node alone. */
    public RocketOptions withCluster(ClusterOptions value) {
        return new RocketOptions(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs,
                tileSize, trace, journal, value, inputs, order);
    }

    public RocketOptions withOrder(ScheduleOrder value) {
        return new RocketOptions(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs,
                tileSize, trace, journal, cluster, inputs, value);
    }
}
