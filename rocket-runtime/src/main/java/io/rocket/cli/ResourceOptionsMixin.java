package io.rocket.cli;

import io.rocket.core.UsageException;
import io.rocket.core.CacheSize;
import io.rocket.core.RocketException;
import io.rocket.core.device.DeviceSpec;
import io.rocket.runtime.InputOptions;
import io.rocket.runtime.RocketOptions;
import io.rocket.steal.ScheduleOrder;
import io.rocket.results.journal.JournalOptions;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.function.Supplier;

import static io.rocket.cli.RuntimeOptionsMixin.atLeast;

/**
 * The runtime options that say how one node runs: its devices, caches, threads, read-ahead and disk cache, and the
 * order of the pair matrix. A part of {@link RuntimeOptionsMixin}, which mixes it in where these options stood.
 */
final class ResourceOptionsMixin {

    @Option(names = "--device", paramLabel = "DEV", converter = Converters.Device.class, defaultValue = "cpu:all",
            description = "Devices: cpu, sim, cpu:N / sim:N (N devices), cpu:all (a cpu device per core that "
                    + "computes: every core up to 4, all but one above), cuda (all GPUs) or cuda:0,2. "
                    + "Default: ${DEFAULT-VALUE}.")
    DeviceSpec device;

    @Option(names = "--host-cache-size", paramLabel = "SIZE", converter = Converters.Size.class,
            description = "L2 host cache per node: bytes with K/M/G suffix, or a slot count like 40slots. Default: 1G.")
    CacheSize hostCacheSize;

    @Option(names = "--device-cache-size", paramLabel = "SIZE", converter = Converters.Size.class,
            description = "L1 cache per device: bytes with K/M/G suffix, or a slot count like 40slots. "
                    + "Default: 256M (cpu), 1G (sim).")
    CacheSize deviceCacheSize;

    @Option(names = "--host-threads", paramLabel = "T",
            description = "CPU pool threads for parsing and postprocessing. Default: number of cores.")
    Integer hostThreads;

    @Option(names = "--io-threads", paramLabel = "T|auto", defaultValue = "auto", converter = Converters.Auto.class,
            description = "Threads reading input files. Default: auto, " + RocketOptions.LOCAL_IO_THREADS
                    + " for local inputs and " + RocketOptions.REMOTE_IO_THREADS + " for sftp, s3 and https ones "
                    + "(their reads wait on the network).")
    int ioThreads;

    @Option(names = "--read-ahead", paramLabel = "SIZE", converter = Converters.Size.class, defaultValue = "256M",
            description = "Read the files of the items the schedule needs next while the devices compute, up to "
                    + "SIZE of files held ahead (0 turns it off). Default: ${DEFAULT-VALUE}.")
    CacheSize readAhead;

    @Option(names = "--disk-cache", paramLabel = "DIR", description = "Keep loaded items in DIR across runs "
            + "(node-local scratch, say): a later run of the same job on unchanged inputs reads and parses nothing. "
            + "Several processes may share DIR.")
    Path diskCache;

    @Option(names = "--disk-cache-size", paramLabel = "SIZE", converter = Converters.Size.class,
            description = "The disk cache's limit; the least recently used items go first. Default: half the free "
                    + "space of DIR's file system, at most 64G.")
    CacheSize diskCacheSize;

    @Option(names = "--concurrent-jobs", paramLabel = "J", defaultValue = "" + RocketOptions.DEFAULT_CONCURRENT_JOBS,
            description = "Pair jobs in flight per device (back-pressure). Default: ${DEFAULT-VALUE}.")
    int concurrentJobs;

    @Option(names = "--tile-size", paramLabel = "L", defaultValue = "" + RocketOptions.DEFAULT_TILE_SIZE,
            description = "Leaf size of the pair-matrix quadtree (L×L pairs per leaf). Default: ${DEFAULT-VALUE}.")
    int tileSize;

    @Option(names = "--tile-pairs", paramLabel = "P|auto", defaultValue = "auto",
            description = "Most pairs compared in one call of the kernels (a tile: its items pinned together, one "
                    + "launch set and one result copy on a GPU). auto: a few milliseconds of the pairs' measured "
                    + "cost, up to a leaf; 1: every pair on its own, one launch and one result copy per pair, as in "
                    + "the Rocket paper. Default: ${DEFAULT-VALUE}.")
    String tilePairs;

    @Option(names = "--order", paramLabel = "ORDER", converter = Converters.Order.class, defaultValue = "blocked",
            description = "Order of the pair matrix on a node: blocked (bands of rows sized to the host cache, the "
                    + "other items streaming past them) or quadtree (the Rocket paper's Hilbert-curve quadtree, for "
                    + "comparison). Default: ${DEFAULT-VALUE}.")
    ScheduleOrder order;

    /**
     * The options as the runtime takes them, with the parts that other groups of options give; checks ranges with
     * messages naming the option. The job options and the journal are asked for after this group's checks, so that
     * a command line with several mistakes is told about the same one first whatever the grouping.
     *
     * @param trace      the {@code --trace} file, or null
     * @param jobOptions the job's identity ({@link RuntimeOptionsMixin#jobOptions()})
     * @param journal    the journal settings, or null without a journal
     * @return the runtime options, without the cluster options
     * @throws RocketException naming the option when one is out of range or needs another that is missing
     */
    RocketOptions toRocketOptions(Path trace, Supplier<String> jobOptions, Supplier<JournalOptions> journal) {
        int threads = hostThreads == null ? Runtime.getRuntime().availableProcessors() : hostThreads;
        atLeast("--host-threads", threads, 1);
        atLeast("--io-threads", ioThreads, RocketOptions.AUTO_IO_THREADS);
        atLeast("--concurrent-jobs", concurrentJobs, 1);
        atLeast("--tile-size", tileSize, 1);
        int pairsPerTile = tilePairs();
        InputOptions inputs = new InputOptions(bytes("--read-ahead", readAhead),
                diskCache, diskCacheSize == null ? 0 : bytes("--disk-cache-size", diskCacheSize), jobOptions.get());
        if (diskCacheSize != null && diskCache == null) {
            throw new UsageException("--disk-cache-size needs --disk-cache DIR, the directory of the disk cache");
        }
        return new RocketOptions(device, hostCacheSize, deviceCacheSize, threads, ioThreads, concurrentJobs, tileSize,
                trace, journal.get(), null, inputs, order, null, pairsPerTile, null);
    }

    /** {@code --tile-pairs}: auto, or a count of at least 1. */
    private int tilePairs() {
        if ("auto".equalsIgnoreCase(tilePairs.trim())) {
            return RocketOptions.AUTO_TILE_PAIRS;
        }
        int value;
        try {
            value = Integer.parseInt(tilePairs.trim());
        } catch (NumberFormatException e) {
            throw new UsageException("--tile-pairs must be auto or a number of pairs, got '" + tilePairs + "'");
        }
        atLeast("--tile-pairs", value, 1);
        return value;
    }

    /** A size that must be given in bytes (these are not caches of slots). */
    private static long bytes(String option, CacheSize size) {
        if (size.bytes() < 0) {
            throw new UsageException(option + " takes a size in bytes (512M, 2G), not a slot count");
        }
        return size.bytes();
    }
}
