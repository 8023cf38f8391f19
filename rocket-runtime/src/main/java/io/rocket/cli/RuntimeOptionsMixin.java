package io.rocket.cli;

import io.rocket.core.CacheSize;
import io.rocket.core.RocketException;
import io.rocket.core.device.DeviceSpec;
import io.rocket.runtime.InputOptions;
import io.rocket.runtime.RocketOptions;
import io.rocket.steal.ScheduleOrder;
import io.rocket.steal.journal.JournalOptions;
import picocli.CommandLine.Option;

import io.rocket.cluster.ClusterOptions;
import io.rocket.cluster.ClusterSecurity;
import io.rocket.cluster.Faults;
import io.rocket.cluster.Stragglers;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

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

    @Option(names = "--order", paramLabel = "ORDER", converter = Converters.Order.class, defaultValue = "blocked",
            description = "Order of the pair matrix on a node: blocked (bands of rows sized to the host cache, the "
                    + "other items streaming past them) or quadtree (the Rocket paper's Hilbert-curve quadtree, for "
                    + "comparison). Default: ${DEFAULT-VALUE}.")
    ScheduleOrder order;

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

    @Option(names = "--journal", paramLabel = "DIR",
            description = "Journal the results in DIR (made durable once a second; by rank 0 in a cluster run), so "
                    + "that a run that stops can be resumed with --resume.")
    Path journal;

    @Option(names = "--resume", description = "Continue the journal in --journal DIR: check that it is this job's "
            + "(same application, options and input files), cut the outputs back to what it recorded, and compute "
            + "only the missing pairs.")
    boolean resume;

    @Option(names = "--nodes", paramLabel = "P", defaultValue = "${env:SLURM_NTASKS:-1}",
            description = "Nodes in a cluster run (default: $SLURM_NTASKS, else 1 = single node).")
    int nodes;

    @Option(names = "--rank", paramLabel = "R", defaultValue = "${env:SLURM_PROCID:-0}",
            description = "This node's rank, 0..P-1; rank 0 writes the results (default: $SLURM_PROCID, else 0).")
    int rank;

    @Option(names = "--hosts", paramLabel = "H[:PORT],...", split = ",",
            description = "Every node's host in rank order (static discovery); port default --port.")
    List<String> hosts;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "" + ClusterOptions.DEFAULT_PORT,
            description = "Control port for hosts given without one. Default: ${DEFAULT-VALUE}.")
    int port;

    @Option(names = "--discovery-dir", paramLabel = "DIR",
            description = "Discover nodes through a directory all of them share, instead of --hosts.")
    Path discoveryDir;

    @Option(names = "--join-timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "Cluster runs: seconds a node waits, from its start, for all nodes to join; then every node "
                    + "exits 1 with one line naming the missing ranks. Default: ${DEFAULT-VALUE}.")
    int joinTimeoutSeconds;

    @Option(names = "--distributed-cache", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Look items up in other nodes' host caches before loading them (cluster runs; "
                    + "--no-distributed-cache turns it off). Default: on.")
    boolean distributedCache;

    @Option(names = "--distributed-cache-hops", paramLabel = "H", defaultValue = "1",
            description = "Recent requesters each item's contact node remembers and asks in turn. Default: ${DEFAULT-VALUE}.")
    int hops;

    @Option(names = "--distributed-cache-timeout", paramLabel = "MS", defaultValue = "5000",
            description = "How long to wait for another node's copy before loading locally. Default: ${DEFAULT-VALUE}.")
    int l3TimeoutMillis;

    @Option(names = "--partitioned-start", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Every node starts with its own stretch of the pair matrix (cluster runs; "
                    + "--no-partitioned-start: rank 0 starts with all of it and the others steal). Default: on.")
    boolean partitionedStart;

    @Option(names = "--start-window", paramLabel = "ITEMS|auto|all", defaultValue = "auto",
            description = "Side of the windows the start shares are cut in (cluster runs): every node gets a part of "
                    + "each window, so the nodes work on the same items at the same time; in cluster bands (blocked "
                    + "order with the distributed cache), the band height. auto: P times a node's band rows in "
                    + "cluster bands; with the quadtree order and the distributed cache, a quarter more than the host "
                    + "cache's items; else all; all: the whole matrix is one window. The run uses the smallest any "
                    + "node gives. Default: ${DEFAULT-VALUE}.")
    String startWindow;

    @Option(names = "--failure-timeout", paramLabel = "SECONDS", defaultValue = "10",
            converter = Converters.Seconds.class,
            description = "Cluster runs: how long a node may stay silent before the others declare it lost and redo "
                    + "its work (a crashed process is seen at once through its closed connection). "
                    + "Default: ${DEFAULT-VALUE}.")
    Duration failureTimeout;

    @Option(names = "--rate-scaled-steals", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Cluster runs: a node asked for work gives a share in proportion to its own and the asking "
                    + "node's measured pairs/s, so fast nodes take much and slow ones little (--no-rate-scaled-steals: "
                    + "one region per steal). Default: on.")
    boolean rateScaledSteals;

    @Option(names = "--duplicate-stragglers", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Cluster runs: once nothing is left to steal, idle nodes also run the pairs a node at least "
                    + "1.5x slower still has in flight; the first result is kept (--no-duplicate-stragglers turns it "
                    + "off). Default: on.")
    boolean duplicateStragglers;

    // Fault injection for scripts/chaos and tests: hidden, never for production runs.
    @Option(names = "--fault-drop", paramLabel = "KINDS:P", hidden = true,
            description = "Drop outgoing control messages of these kinds (or 'lossy') with probability P.")
    String faultDrop;

    @Option(names = "--fault-delay-us", paramLabel = "US", hidden = true, defaultValue = "0",
            description = "Delay this node's every pair job by US microseconds (a slow node).")
    long faultDelayMicros;

    @Option(names = "--fault-crash-after", paramLabel = "PAIRS", hidden = true, defaultValue = "-1",
            description = "Crash this node after it computed PAIRS pairs.")
    long faultCrashAfter;

    @Option(names = "--cluster-secret-file", paramLabel = "FILE", defaultValue = "${env:ROCKET_CLUSTER_SECRET_FILE}",
            description = "Cluster runs: a file holding the secret every node must prove it has (e.g. 32 random bytes, "
                    + "readable only by you) to join and to open data connections; it never goes on the wire. "
                    + "Default: $ROCKET_CLUSTER_SECRET_FILE, else none (an open cluster).")
    Path clusterSecretFile;

    @Option(names = "--cluster-encrypt",
            description = "Cluster runs: also encrypt control messages and item data (needs --cluster-secret-file).")
    boolean clusterEncrypt;

    @Option(names = "--progress", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Show progress on stderr (rank 0 of a cluster run): a bar on a terminal, else a line every "
                    + "30 s and one at the end; --no-progress turns it off. Default: on.")
    boolean progress;

    // Tests and short runs: how often the progress line is printed without a terminal.
    @Option(names = "--progress-interval", paramLabel = "SECONDS", hidden = true, defaultValue = "30",
            description = "Seconds between two progress lines without a terminal; 0 turns progress off.")
    double progressIntervalSeconds;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** Options at their defaults; picocli sets the ones given. */
    public RuntimeOptionsMixin() {
    }

    /**
     * Whether this is a cluster run.
     *
     * @return true when {@code --nodes} is above 1
     */
    public boolean isCluster() {
        return nodes > 1;
    }

    /**
     * Whether this node writes the run's outputs: always on one node, rank 0 only in a cluster run.
     *
     * @return true when this node writes the TSV, errors and summary files
     */
    public boolean writesOutputs() {
        return !isCluster() || rank == 0;
    }

    /**
     * The cluster options of this node; {@code fingerprint} must be the same on every node.
     *
     * @param fingerprint what identifies the job, usually {@link #fingerprint(List)}; nodes with different
     *        fingerprints refuse to run together
     * @return the options of this node's rank, with every host resolved
     * @throws RocketException naming the option when one is out of range, {@code --hosts} does not list
     *         {@code --nodes} hosts, a host cannot be resolved, or neither {@code --hosts} nor
     *         {@code --discovery-dir} is given
     */
    public ClusterOptions clusterOptions(String fingerprint) {
        atLeast("--nodes", nodes, 1);
        if (rank < 0 || rank >= nodes) {
            throw new RocketException("--rank must be in 0.." + (nodes - 1) + ", got " + rank);
        }
        atLeast("--distributed-cache-hops", hops, 1);
        atLeast("--distributed-cache-timeout", l3TimeoutMillis, 1);
        atLeast("--join-timeout", joinTimeoutSeconds, 1);
        List<InetSocketAddress> addresses = new ArrayList<>();
        if (hosts != null) {
            if (hosts.size() != nodes) {
                throw new RocketException("--hosts lists " + hosts.size() + " hosts for --nodes " + nodes);
            }
            for (String h : hosts) {
                addresses.add(hostAddress(h));
            }
        } else if (discoveryDir == null) {
            throw new RocketException("a cluster run needs --hosts or --discovery-dir");
        }
        return ClusterOptions.builder(rank, nodes).hosts(addresses).discoveryDir(discoveryDir)
                .joinTimeout(Duration.ofSeconds(joinTimeoutSeconds)).distributedCache(distributedCache).hops(hops)
                .l3Timeout(Duration.ofMillis(l3TimeoutMillis)).partitionedStart(partitionedStart)
                .startWindow(startWindow()).fingerprint(fingerprint).faults(faults()).failureTimeout(failureTimeout)
                .security(security()).stragglers(new Stragglers(rateScaledSteals, duplicateStragglers)).build();
    }

    /** The cluster secret and encryption setting; reading the secret file fails with one line naming the file. */
    ClusterSecurity security() {
        if (clusterSecretFile == null) {
            if (clusterEncrypt) {
                throw new RocketException("--cluster-encrypt needs a cluster secret: give --cluster-secret-file FILE "
                        + "(or set ROCKET_CLUSTER_SECRET_FILE)");
            }
            return ClusterSecurity.NONE;
        }
        return ClusterSecurity.fromFile(clusterSecretFile, clusterEncrypt);
    }

    private Faults faults() {
        Faults faults;
        try {
            faults = faultDrop == null ? Faults.NONE : Faults.parseDrop(faultDrop);
        } catch (IllegalArgumentException e) {
            throw new RocketException("--fault-drop: " + e.getMessage());
        }
        return faults.withDelayMicros(Math.max(0, faultDelayMicros)).withCrashAfter(faultCrashAfter);
    }

    private int startWindow() {
        String text = startWindow.trim().toLowerCase(Locale.ROOT);
        if (text.equals("auto")) {
            return ClusterOptions.AUTO_WINDOW;
        }
        if (text.equals("all")) {
            return Integer.MAX_VALUE;
        }
        try {
            int items = Integer.parseInt(text);
            if (items >= 1) {
                return items;
            }
        } catch (NumberFormatException e) {
            // the message below says what is expected
        }
        throw new RocketException("--start-window must be a number of items (at least 1), auto or all, got '"
                + startWindow + "'");
    }

    private InetSocketAddress hostAddress(String text) {
        String host = text.trim();
        int p = port;
        int colon = host.lastIndexOf(':');
        if (colon > 0 && host.indexOf(':') == colon) {
            try {
                p = Integer.parseInt(host.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new RocketException("bad host '" + text + "': port is not a number");
            }
            host = host.substring(0, colon);
        }
        InetSocketAddress address = new InetSocketAddress(host, p);
        if (address.isUnresolved()) {
            throw new RocketException("unknown host '" + host + "' in --hosts");
        }
        return address;
    }

    /**
     * The command and its application options at their effective values, one per line: what makes two runs the
     * same job, for the cluster's join check and a journal's identity. The runtime options declared here, and where
     * the inputs are ({@link InputsMixin}), are left out: they may differ between nodes, and between a run and its
     * resumption elsewhere. So are an application's output files (options whose parameter is labelled {@code FILE}): only rank 0 writes them, and a resumed job may
     * ask for more of them. The {@link ReductionOptions} are left out too: they change what is written, not a pair's
     * result (the cluster's fingerprint adds them, {@link ReductionOptions#fingerprint}).
     *
     * @return the command's qualified name, then one {@code --option=value} line per application option
     */
    public String jobOptions() {
        StringBuilder b = new StringBuilder(command.qualifiedName());
        Set<String> runtime = new HashSet<>();
        for (Class<?> mixin : List.of(RuntimeOptionsMixin.class, InputsMixin.class, ReductionOptions.class)) {
            for (java.lang.reflect.Field f : mixin.getDeclaredFields()) {
                Option o = f.getAnnotation(Option.class);
                if (o != null) {
                    runtime.addAll(Arrays.asList(o.names()));
                }
            }
        }
        for (CommandLine.Model.OptionSpec o : command.options()) {
            if (!o.usageHelp() && !o.versionHelp() && !runtime.contains(o.longestName())
                    && !o.paramLabel().equals("FILE")) {
                b.append('\n').append(o.longestName()).append('=').append(String.valueOf((Object) o.getValue()));
            }
        }
        return b.toString();
    }

    /**
     * A digest of what must be equal on every node: the {@link #jobOptions}, how the work starts, and the item
     * labels in order.
     *
     * @param labels the item labels, in key order
     * @return the digest, the same on every node of one job
     */
    public String fingerprint(List<String> labels) {
        return ClusterOptions.fingerprint(jobOptions(), partitionedStart, labels);
    }

    /**
     * The journal settings ({@code --journal}, {@code --resume}), or null without a journal.
     *
     * @return the journal directory, whether to resume, and the {@link #jobOptions()}; null without
     *         {@code --journal}
     * @throws RocketException when {@code --resume} is given without {@code --journal}
     */
    public JournalOptions journalOptions() {
        if (journal == null) {
            if (resume) {
                throw new RocketException("--resume needs --journal DIR, the directory of the journal to continue");
            }
            return null;
        }
        return new JournalOptions(journal, resume, jobOptions());
    }

    /**
     * The options as the runtime takes them; checks ranges with messages naming the option.
     *
     * @return the runtime options, without the cluster options (see {@link #clusterOptions(String)})
     * @throws RocketException naming the option when one is out of range or needs another that is missing
     */
    public RocketOptions toRocketOptions() {
        int threads = hostThreads == null ? Runtime.getRuntime().availableProcessors() : hostThreads;
        atLeast("--host-threads", threads, 1);
        atLeast("--io-threads", ioThreads, RocketOptions.AUTO_IO_THREADS);
        atLeast("--concurrent-jobs", concurrentJobs, 1);
        atLeast("--tile-size", tileSize, 1);
        InputOptions inputs = new InputOptions(bytes("--read-ahead", readAhead),
                diskCache, diskCacheSize == null ? 0 : bytes("--disk-cache-size", diskCacheSize), jobOptions());
        if (diskCacheSize != null && diskCache == null) {
            throw new RocketException("--disk-cache-size needs --disk-cache DIR, the directory of the disk cache");
        }
        return new RocketOptions(device, hostCacheSize, deviceCacheSize, threads, ioThreads, concurrentJobs, tileSize,
                trace, journalOptions(), null, inputs, order, null);
    }

    /** A size that must be given in bytes (these are not caches of slots). */
    private static long bytes(String option, CacheSize size) {
        if (size.bytes() < 0) {
            throw new RocketException(option + " takes a size in bytes (512M, 2G), not a slot count");
        }
        return size.bytes();
    }

    static void atLeast(String option, long value, long min) {
        if (value < min) {
            throw new RocketException(option + " must be at least " + min + ", got " + value);
        }
    }

    /**
     * The {@code --output} file: the TSV of results.
     *
     * @return the path as given, or null when results are not written
     */
    public Path output() {
        return output;
    }

    /**
     * The {@code --errors} file: the TSV of failed pairs.
     *
     * @return the path as given, or null when failed pairs are not written
     */
    public Path errors() {
        return errors;
    }

    /**
     * The {@code --summary-json} file: the run summary as JSON.
     *
     * @return the path as given, or null when no JSON summary is written
     */
    public Path summaryJson() {
        return summaryJson;
    }

    /**
     * How often progress is shown without a terminal, or null when it is off ({@code --no-progress}, interval 0).
     *
     * @return the interval, at least one millisecond, or null when progress is off
     * @throws RocketException when {@code --progress-interval} is not between 0 and 86400 seconds
     */
    public Duration progressInterval() {
        if (!(progressIntervalSeconds >= 0) || progressIntervalSeconds > 86_400) {
            throw new RocketException("--progress-interval must be 0 (off) to 86400 seconds, got "
                    + progressIntervalSeconds);
        }
        if (!progress || progressIntervalSeconds == 0) {
            return null;
        }
        return Duration.ofMillis(Math.max(1, Math.round(progressIntervalSeconds * 1000)));
    }

    /**
     * Where progress goes: the command's error stream (stderr), so that stdout and pipes stay clean.
     *
     * @return the command's error writer, or an auto-flushing writer on {@link System#err} outside picocli
     */
    public PrintWriter progressOutput() {
        return command != null ? command.commandLine().getErr() : new PrintWriter(System.err, true);
    }
}
