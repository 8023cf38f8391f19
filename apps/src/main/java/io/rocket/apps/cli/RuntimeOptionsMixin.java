package io.rocket.apps.cli;

import io.rocket.core.CacheSize;
import io.rocket.core.RocketException;
import io.rocket.core.device.DeviceSpec;
import io.rocket.steal.RocketOptions;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** The runtime options every application command takes (devices, caches, threads, scheduling, outputs). */
public final class RuntimeOptionsMixin {

    @Option(names = "--device", paramLabel = "DEV", converter = Converters.Device.class, defaultValue = "cpu",
            description = "Devices: cpu, sim, cpu:N / sim:N (N devices), cuda (all GPUs) or cuda:0,2. Default: ${DEFAULT-VALUE}.")
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

    @Option(names = "--io-threads", paramLabel = "T", defaultValue = "1",
            description = "Threads reading input files. Default: ${DEFAULT-VALUE}.")
    int ioThreads;

    @Option(names = "--concurrent-jobs", paramLabel = "J", defaultValue = "" + RocketOptions.DEFAULT_CONCURRENT_JOBS,
            description = "Pair jobs in flight per device (back-pressure). Default: ${DEFAULT-VALUE}.")
    int concurrentJobs;

    @Option(names = "--tile-size", paramLabel = "L", defaultValue = "" + RocketOptions.DEFAULT_TILE_SIZE,
            description = "Leaf size of the pair-matrix quadtree (L×L pairs per leaf). Default: ${DEFAULT-VALUE}.")
    int tileSize;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write the pair results as TSV (i, j, left, right, result), streamed as they arrive.")
    Path output;

    @Option(names = "--errors", paramLabel = "FILE", description = "Write failed pairs as TSV (i, j, left, right, error).")
    Path errors;

    @Option(names = "--summary-json", paramLabel = "FILE", description = "Write the run summary as JSON.")
    Path summaryJson;

    @Option(names = "--trace", paramLabel = "FILE",
            description = "Write a Chrome/Perfetto trace (JSON; gzip when FILE ends in .gz).")
    Path trace;

    /** The options as the runtime takes them; checks ranges with messages naming the option. */
    public RocketOptions toRocketOptions() {
        int threads = hostThreads == null ? Runtime.getRuntime().availableProcessors() : hostThreads;
        atLeast("--host-threads", threads, 1);
        atLeast("--io-threads", ioThreads, 1);
        atLeast("--concurrent-jobs", concurrentJobs, 1);
        atLeast("--tile-size", tileSize, 1);
        return new RocketOptions(device, hostCacheSize, deviceCacheSize, threads, ioThreads, concurrentJobs, tileSize,
                trace);
    }

    static void atLeast(String option, long value, long min) {
        if (value < min) {
            throw new RocketException(option + " must be at least " + min + ", got " + value);
        }
    }

    public Path output() {
        return output;
    }

    public Path errors() {
        return errors;
    }

    public Path summaryJson() {
        return summaryJson;
    }
}
