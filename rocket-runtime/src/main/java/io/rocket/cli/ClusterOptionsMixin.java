package io.rocket.cli;

import io.rocket.core.UsageException;
import io.rocket.core.RocketException;
import io.rocket.cluster.ClusterOptions;
import io.rocket.cluster.ClusterSecurity;
import io.rocket.cluster.Faults;
import io.rocket.cluster.Stragglers;
import picocli.CommandLine.Option;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.rocket.cli.RuntimeOptionsMixin.atLeast;

/**
 * The runtime options of a cluster run: the nodes and how they find each other, the distributed cache, how the work
 * starts and is shared, failure detection, security, and the hidden fault injection of the chaos tests. A part of
 * {@link RuntimeOptionsMixin}, which mixes it in where these options stood.
 */
final class ClusterOptionsMixin {

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

    @Option(names = "--shared-output",
            description = "Cluster runs: every node writes the results it computes itself, into --output's directory, "
                    + "which every node must see (a cluster file system): a dense .npy is one file they all write "
                    + "into; TSV, TSV.gz and sparse .npy become OUT.parts/ with one part per node and a "
                    + "manifest.json. Rank 0 then receives which pairs are done, not the results. Not with --journal, "
                    + "--store, --top-k/--min-score/--max-score or an application's derived outputs; turns "
                    + "--duplicate-stragglers off.")
    boolean sharedOutput;

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

    /** Whether this is a cluster run: {@code --nodes} above 1. */
    boolean isCluster() {
        return nodes > 1;
    }

    /** Whether every node of a cluster run writes its share of the pair output ({@code --shared-output}). */
    boolean sharedOutput() {
        return isCluster() && sharedOutput;
    }

    /** Whether this node writes the run's outputs: always on one node, rank 0 only in a cluster run. */
    boolean writesOutputs() {
        return !isCluster() || rank == 0;
    }

    /** Whether every node starts with its own stretch of the pair matrix ({@code --partitioned-start}). */
    boolean partitionedStart() {
        return partitionedStart;
    }

    /**
     * The cluster options of this node; {@code fingerprint} must be the same on every node.
     *
     * @param fingerprint what identifies the job, usually {@link RuntimeOptionsMixin#fingerprint(List)}; nodes with
     *        different fingerprints refuse to run together
     * @return the options of this node's rank, with every host resolved
     * @throws RocketException naming the option when one is out of range, {@code --hosts} does not list
     *         {@code --nodes} hosts, a host cannot be resolved, or neither {@code --hosts} nor
     *         {@code --discovery-dir} is given
     */
    ClusterOptions clusterOptions(String fingerprint) {
        atLeast("--nodes", nodes, 1);
        if (rank < 0 || rank >= nodes) {
            throw new UsageException("--rank must be in 0.." + (nodes - 1) + ", got " + rank);
        }
        atLeast("--distributed-cache-hops", hops, 1);
        atLeast("--distributed-cache-timeout", l3TimeoutMillis, 1);
        atLeast("--join-timeout", joinTimeoutSeconds, 1);
        List<InetSocketAddress> addresses = new ArrayList<>();
        if (hosts != null) {
            if (hosts.size() != nodes) {
                throw new UsageException("--hosts lists " + hosts.size() + " hosts for --nodes " + nodes);
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
                throw new UsageException("--cluster-encrypt needs a cluster secret: give --cluster-secret-file FILE "
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
        throw new UsageException("--start-window must be a number of items (at least 1), auto or all, got '"
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
}
