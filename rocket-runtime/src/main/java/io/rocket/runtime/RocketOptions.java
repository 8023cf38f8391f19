package io.rocket.runtime;

import io.rocket.steal.ScheduleOrder;
import io.rocket.core.CacheSize;
import io.rocket.core.device.DeviceSpec;
import io.rocket.cluster.ClusterOptions;
import io.rocket.results.journal.JournalOptions;
import io.rocket.results.reduce.Reduction;
import io.rocket.runtime.status.StatusOptions;

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
 * @param reduction       what to keep of the results, decided on the node that computed each pair (top-k, a score
 *                        band); null keeps every result
 * @param tilePairs       most pairs compared in one call of the kernels ({@link #AUTO_TILE_PAIRS} for the runtime's
 *                        choice; 1 runs every pair as its own job, one launch and one result copy per pair)
 * @param status          the status endpoint, status directory and event log; null for none
 */
public record RocketOptions(DeviceSpec device, CacheSize hostCacheSize, CacheSize deviceCacheSize, int hostThreads,
                            int ioThreads, int concurrentJobs, int tileSize, Path trace, JournalOptions journal,
                            ClusterOptions cluster, InputOptions inputs, ScheduleOrder order, Reduction reduction,
                            int tilePairs, StatusOptions status) {

    /** Default L2 size. */
    public static final CacheSize DEFAULT_HOST_CACHE = new CacheSize(1L << 30, -1);
    /** Default pair jobs in flight per device. */
    public static final int DEFAULT_CONCURRENT_JOBS = 64;
    /** Default leaf size of the pair-matrix quadtree. */
    public static final int DEFAULT_TILE_SIZE = 16;
    /** {@link #tilePairs} chosen by the runtime: a few milliseconds of the pairs' measured cost a tile. */
    public static final int AUTO_TILE_PAIRS = 0;
    /** {@link #ioThreads} to be chosen by the runtime: more for remote inputs, whose reads wait on the network. */
    public static final int AUTO_IO_THREADS = 0;
    /** I/O threads chosen for local inputs. */
    public static final int LOCAL_IO_THREADS = 2;
    /** I/O threads chosen for remote inputs (sftp, s3, https): enough reads in flight to hide their latency. */
    public static final int REMOTE_IO_THREADS = 8;

    /**
     * Fills in the defaults of {@link #inputs} and {@link #order}.
     *
     * @param device          which devices to use
     * @param hostCacheSize   L2 size (per node), or null
     * @param deviceCacheSize L1 size (per device), or null
     * @param hostThreads     CPU pool threads
     * @param ioThreads       I/O threads
     * @param concurrentJobs  pair jobs in flight per device
     * @param tileSize        leaf size of the pair-matrix quadtree
     * @param trace           Chrome trace file, or null
     * @param journal         where to journal the run's results, or null
     * @param cluster         how this node joins a cluster run, or null
     * @param inputs          read-ahead and the disk cache; null for {@link InputOptions#DEFAULT}
     * @param order           the order of the pair matrix on a node; null for {@link ScheduleOrder#BLOCKED}
     * @param reduction       what to keep of the results; null keeps every result
     * @param tilePairs       most pairs a kernel call compares; {@link #AUTO_TILE_PAIRS} for the runtime's choice
     * @param status          the status endpoint, status directory and event log; null for none
     */
    public RocketOptions {
        if (tilePairs < 0) {
            throw new IllegalArgumentException("tile pairs must be at least 0 (0 for automatic), got " + tilePairs);
        }
        inputs = inputs == null ? InputOptions.DEFAULT : inputs;
        order = order == null ? ScheduleOrder.BLOCKED : order;
    }

    /**
     * The options of a run on this node alone (no {@link #cluster}), default inputs and order.
     *
     * @param device          which devices to use
     * @param hostCacheSize   L2 size (per node), or null
     * @param deviceCacheSize L1 size (per device), or null
     * @param hostThreads     CPU pool threads
     * @param ioThreads       I/O threads
     * @param concurrentJobs  pair jobs in flight per device
     * @param tileSize        leaf size of the pair-matrix quadtree
     * @param trace           Chrome trace file, or null
     * @param journal         where to journal the run's results, or null
     */
    public RocketOptions(DeviceSpec device, CacheSize hostCacheSize, CacheSize deviceCacheSize, int hostThreads,
                         int ioThreads, int concurrentJobs, int tileSize, Path trace, JournalOptions journal) {
        this(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs, tileSize, trace, journal,
                null, null, null, null, AUTO_TILE_PAIRS, null);
    }

    /**
     * Defaults: a cpu device per core that computes ({@link DeviceSpec#cpuAll()}), all cores for the CPU pool, this node alone.
     *
     * @return the default options
     */
    public static RocketOptions defaults() {
        return new RocketOptions(DeviceSpec.cpuAll(), null, null, Runtime.getRuntime().availableProcessors(),
                AUTO_IO_THREADS, DEFAULT_CONCURRENT_JOBS, DEFAULT_TILE_SIZE, null, null, null, null, null, null,
                AUTO_TILE_PAIRS, null);
    }

    /**
     * Whether {@link Rocket#run} runs this node as one node of a cluster run (a {@link #cluster} of 2+ nodes).
     *
     * @return true for a cluster run
     */
    public boolean isCluster() {
        return cluster != null && cluster.nodes() > 1;
    }

    /**
     * A builder that starts from these options.
     *
     * @return a builder holding every component of these options
     */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * These options on other devices.
     *
     * @param value the devices
     * @return the changed options
     */
    public RocketOptions withDevice(DeviceSpec value) {
        return toBuilder().device(value).build();
    }

    /**
     * These options with other cache sizes.
     *
     * @param host   L2 size, or null for the default
     * @param device L1 size, or null for the default
     * @return the changed options
     */
    public RocketOptions withCaches(CacheSize host, CacheSize device) {
        return toBuilder().hostCacheSize(host).deviceCacheSize(device).build();
    }

    /**
     * These options with other thread counts.
     *
     * @param host CPU pool threads
     * @param io   I/O threads, or {@link #AUTO_IO_THREADS}
     * @return the changed options
     */
    public RocketOptions withThreads(int host, int io) {
        return toBuilder().hostThreads(host).ioThreads(io).build();
    }

    /**
     * These options with another number of pair jobs in flight per device.
     *
     * @param value pair jobs in flight per device
     * @return the changed options
     */
    public RocketOptions withConcurrentJobs(int value) {
        return toBuilder().concurrentJobs(value).build();
    }

    /**
     * These options with another leaf size.
     *
     * @param value leaf size of the pair-matrix quadtree
     * @return the changed options
     */
    public RocketOptions withTileSize(int value) {
        return toBuilder().tileSize(value).build();
    }

    /**
     * These options writing a Chrome trace.
     *
     * @param value the trace file, or null for none
     * @return the changed options
     */
    public RocketOptions withTrace(Path value) {
        return toBuilder().trace(value).build();
    }

    /**
     * These options with a journal.
     *
     * @param value where to journal the run's results, or null for none
     * @return the changed options
     */
    public RocketOptions withJournal(JournalOptions value) {
        return toBuilder().journal(value).build();
    }

    /**
     * These options with other input options.
     *
     * @param value read-ahead and the disk cache
     * @return the changed options
     */
    public RocketOptions withInputs(InputOptions value) {
        return toBuilder().inputs(value).build();
    }

    /**
     * The same options as one node of the cluster run {@code value} describes.
     *
     * @param value how this node joins a cluster run; null runs on this node alone
     * @return the changed options
     */
    public RocketOptions withCluster(ClusterOptions value) {
        return toBuilder().cluster(value).build();
    }

    /**
     * These options in another order of the pair matrix.
     *
     * @param value the order
     * @return the changed options
     */
    public RocketOptions withOrder(ScheduleOrder value) {
        return toBuilder().order(value).build();
    }

    /**
     * These options with a reduction of the results.
     *
     * @param value what to keep of the results (top-k, a score band), or null to keep every result
     * @return a copy with {@link #reduction} replaced
     */
    public RocketOptions withReduction(Reduction value) {
        return toBuilder().reduction(value).build();
    }

    /** Builds {@link RocketOptions} one component at a time; each setter returns this builder. */
    public static final class Builder {
        private DeviceSpec device;
        private CacheSize hostCacheSize;
        private CacheSize deviceCacheSize;
        private int hostThreads;
        private int ioThreads;
        private int concurrentJobs;
        private int tileSize;
        private Path trace;
        private JournalOptions journal;
        private ClusterOptions cluster;
        private InputOptions inputs;
        private ScheduleOrder order;
        private Reduction reduction;
        private int tilePairs;
        private StatusOptions status;

        private Builder(RocketOptions o) {
            device = o.device;
            hostCacheSize = o.hostCacheSize;
            deviceCacheSize = o.deviceCacheSize;
            hostThreads = o.hostThreads;
            ioThreads = o.ioThreads;
            concurrentJobs = o.concurrentJobs;
            tileSize = o.tileSize;
            trace = o.trace;
            journal = o.journal;
            cluster = o.cluster;
            inputs = o.inputs;
            order = o.order;
            reduction = o.reduction;
            tilePairs = o.tilePairs;
            status = o.status;
        }

        /**
         * Sets {@link RocketOptions#device}.
         *
         * @param value the new value
         * @return this builder
         */
        public Builder device(DeviceSpec value) {
            device = value;
            return this;
        }

        /**
         * Sets {@link RocketOptions#hostCacheSize}.
         *
         * @param value the new value
         * @return this builder
         */
        public Builder hostCacheSize(CacheSize value) {
            hostCacheSize = value;
            return this;
        }

        /**
         * Sets {@link RocketOptions#deviceCacheSize}.
         *
         * @param value the new value
         * @return this builder
         */
        public Builder deviceCacheSize(CacheSize value) {
            deviceCacheSize = value;
            return this;
        }

        /**
         * Sets {@link RocketOptions#hostThreads}.
         *
         * @param value the new value
         * @return this builder
         */
        public Builder hostThreads(int value) {
            hostThreads = value;
            return this;
        }

        /**
         * Sets {@link RocketOptions#ioThreads}.
         *
         * @param value the new value
         * @return this builder
         */
        public Builder ioThreads(int value) {
            ioThreads = value;
            return this;
        }

        /**
         * Sets {@link RocketOptions#concurrentJobs}.
         *
         * @param value the new value
         * @return this builder
         */
        public Builder concurrentJobs(int value) {
            concurrentJobs = value;
            return this;
        }

        /**
         * Sets {@link RocketOptions#tileSize}.
         *
         * @param value the new value
         * @return this builder
         */
        public Builder tileSize(int value) {
            tileSize = value;
            return this;
        }

        /**
         * Sets {@link RocketOptions#trace}.
         *
         * @param value the new value
         * @return this builder
         */
        public Builder trace(Path value) {
            trace = value;
            return this;
        }

        /**
         * Sets {@link RocketOptions#journal}.
         *
         * @param value the new value
         * @return this builder
         */
        public Builder journal(JournalOptions value) {
            journal = value;
            return this;
        }

        /**
         * Sets {@link RocketOptions#cluster}.
         *
         * @param value the new value
         * @return this builder
         */
        public Builder cluster(ClusterOptions value) {
            cluster = value;
            return this;
        }

        /**
         * Sets {@link RocketOptions#inputs}.
         *
         * @param value the new value
         * @return this builder
         */
        public Builder inputs(InputOptions value) {
            inputs = value;
            return this;
        }

        /**
         * Sets {@link RocketOptions#order}.
         *
         * @param value the new value
         * @return this builder
         */
        public Builder order(ScheduleOrder value) {
            order = value;
            return this;
        }

        /**
         * Sets {@link RocketOptions#reduction}.
         *
         * @param value the new value
         * @return this builder
         */
        public Builder reduction(Reduction value) {
            reduction = value;
            return this;
        }

        /**
         * Sets {@link RocketOptions#tilePairs}.
         *
         * @param value the new value
         * @return this builder
         */
        public Builder tilePairs(int value) {
            tilePairs = value;
            return this;
        }

        /**
         * Sets {@link RocketOptions#status}.
         *
         * @param value the new value
         * @return this builder
         */
        public Builder status(StatusOptions value) {
            status = value;
            return this;
        }

        /**
         * The options built so far.
         *
         * @return the options
         */
        public RocketOptions build() {
            return new RocketOptions(device, hostCacheSize, deviceCacheSize, hostThreads, ioThreads, concurrentJobs,
                    tileSize, trace, journal, cluster, inputs, order, reduction, tilePairs, status);
        }
    }
}
