package io.rocket.steal.cluster;

import io.rocket.steal.StartShares;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

/**
 * How a node joins a cluster run and how the cluster-wide parts behave.
 *
 * @param rank             this node's stable rank, 0..nodes-1 (rank 0 collects results and ends the run)
 * @param nodes            P, the number of nodes that must join before the run starts
 * @param hosts            every node's control address in rank order (static discovery), or empty
 * @param discoveryDir     a directory all nodes share (file-based discovery), or null
 * @param loopbackGroup    an in-JVM cluster name (tests: all nodes in one JVM), or null
 * @param joinTimeout      how long a node waits for the cluster to form, from the start of its run (connecting
 *                         included); then it fails with one line naming the missing ranks
 * @param distributedCache whether the L3 level is used
 * @param hops             h: candidates kept per item by its contact node
 * @param l3Timeout        how long a requester waits for an L3 reply before loading locally
 * @param partitionedStart whether every node starts with its own share of the pair matrix ({@link StartShares});
 *                         if not, rank 0 starts with all of it and the others get work only by stealing
 * @param startWindow      the side of the windows the shares are cut in ({@link StartShares}), in items:
 *                         {@link #AUTO_WINDOW} sizes them to the L2 when the distributed cache is on, else the
 *                         whole matrix is one window; the cluster uses the smallest any node proposes
 * @param fingerprint      digest of keys and options; every node must match rank 0's
 * @param faults           fault injection for tests (drop some messages), or {@link Faults#NONE}
 * @param failureTimeout   how long a silent node may stay silent before it is declared lost (a crashed process
 *                         whose host stays up is seen at once through its closed socket)
 * @param security         authentication and encryption ({@link ClusterSecurity#NONE}: an open cluster)
 * @param stragglers       rate-scaled steals and end-game duplication ({@link Stragglers#DEFAULT}: both on)
 */
public record ClusterOptions(int rank, int nodes, List<InetSocketAddress> hosts, Path discoveryDir,
                             String loopbackGroup, Duration joinTimeout, boolean distributedCache, int hops,
                             Duration l3Timeout, boolean partitionedStart, int startWindow, String fingerprint,
                             Faults faults, Duration failureTimeout, ClusterSecurity security,
                             Stragglers stragglers) {

    public static final int DEFAULT_PORT = 7800;
    public static final Duration DEFAULT_JOIN_TIMEOUT = Duration.ofSeconds(60);
    public static final Duration DEFAULT_L3_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_FAILURE_TIMEOUT = Duration.ofSeconds(10);
    /** {@link #startWindow}: chosen from the L2 size and whether the distributed cache is on. */
    public static final int AUTO_WINDOW = 0;

    public ClusterOptions {
        if (nodes < 1 || rank < 0 || rank >= nodes) {
            throw new IllegalArgumentException("rank " + rank + " is not in 0.." + (nodes - 1));
        }
        if (!hosts.isEmpty() && hosts.size() != nodes) {
            throw new IllegalArgumentException(hosts.size() + " hosts given for " + nodes + " nodes");
        }
        if (hosts.isEmpty() && discoveryDir == null && loopbackGroup == null) {
            throw new IllegalArgumentException("no discovery: give a host list or a discovery directory");
        }
        if (startWindow < 0) {
            throw new IllegalArgumentException("start window must be >= 1 item (or AUTO_WINDOW)");
        }
        if (failureTimeout.toMillis() < 100) {
            throw new IllegalArgumentException("failure timeout must be at least 100 ms");
        }
        hosts = List.copyOf(hosts);
        stragglers = stragglers == null ? Stragglers.DEFAULT : stragglers;
    }

    /** The options with {@link Stragglers#DEFAULT} straggler handling. */
    public ClusterOptions(int rank, int nodes, List<InetSocketAddress> hosts, Path discoveryDir, String loopbackGroup,
                          Duration joinTimeout, boolean distributedCache, int hops, Duration l3Timeout,
                          boolean partitionedStart, int startWindow, String fingerprint, Faults faults,
                          Duration failureTimeout, ClusterSecurity security) {
        this(rank, nodes, hosts, discoveryDir, loopbackGroup, joinTimeout, distributedCache, hops, l3Timeout,
                partitionedStart, startWindow, fingerprint, faults, failureTimeout, security, Stragglers.DEFAULT);
    }

    /**
     * Node {@code rank} of a cluster whose nodes' control addresses are {@code hosts} in rank order (one node per
     * address), with the defaults of the command line: distributed cache on with one hop, partitioned start, start
     * windows sized automatically, an open cluster (see {@link #withSecurity}).
     */
    public static ClusterOptions ofHosts(int rank, List<InetSocketAddress> hosts) {
        return new ClusterOptions(rank, hosts.size(), hosts, null, null, DEFAULT_JOIN_TIMEOUT, true, 1,
                DEFAULT_L3_TIMEOUT, true, AUTO_WINDOW, "", Faults.NONE, DEFAULT_FAILURE_TIMEOUT, ClusterSecurity.NONE);
    }

    /**
     * The fingerprint of a job: a digest of what must be equal on every node, {@code job} (the application and its
     * options), how the work starts (a node starting empty while rank 0 starts with only its share would leave that
     * share to nobody) and the item labels in order. Every way of starting a cluster run makes it here.
     */
    public static String fingerprint(String job, boolean partitionedStart, List<String> labels) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update((job + "\n--partitioned-start=" + partitionedStart + "\n").getBytes(StandardCharsets.UTF_8));
            for (String label : labels) {
                digest.update((label + "\n").getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(digest.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An in-JVM test node. */
    public static ClusterOptions loopback(String group, int rank, int nodes) {
        return new ClusterOptions(rank, nodes, List.of(), null, group, Duration.ofSeconds(30), true, 1,
                Duration.ofSeconds(2), true, AUTO_WINDOW, "", Faults.NONE, Duration.ofSeconds(3), ClusterSecurity.NONE);
    }

    public ClusterOptions withDistributedCache(boolean on, int h) {
        return new ClusterOptions(rank, nodes, hosts, discoveryDir, loopbackGroup, joinTimeout, on, h, l3Timeout,
                partitionedStart, startWindow, fingerprint, faults, failureTimeout, security, stragglers);
    }

    public ClusterOptions withFaults(Faults value) {
        return new ClusterOptions(rank, nodes, hosts, discoveryDir, loopbackGroup, joinTimeout, distributedCache, hops,
                l3Timeout, partitionedStart, startWindow, fingerprint, value, failureTimeout, security, stragglers);
    }

    public ClusterOptions withFingerprint(String value) {
        return new ClusterOptions(rank, nodes, hosts, discoveryDir, loopbackGroup, joinTimeout, distributedCache, hops,
                l3Timeout, partitionedStart, startWindow, value, faults, failureTimeout, security, stragglers);
    }

    public ClusterOptions withL3Timeout(Duration value) {
        return new ClusterOptions(rank, nodes, hosts, discoveryDir, loopbackGroup, joinTimeout, distributedCache, hops,
                value, partitionedStart, startWindow, fingerprint, faults, failureTimeout, security, stragglers);
    }

    public ClusterOptions withPartitionedStart(boolean on) {
        return new ClusterOptions(rank, nodes, hosts, discoveryDir, loopbackGroup, joinTimeout, distributedCache, hops,
                l3Timeout, on, startWindow, fingerprint, faults, failureTimeout, security, stragglers);
    }

    public ClusterOptions withStartWindow(int value) {
        return new ClusterOptions(rank, nodes, hosts, discoveryDir, loopbackGroup, joinTimeout, distributedCache, hops,
                l3Timeout, partitionedStart, value, fingerprint, faults, failureTimeout, security, stragglers);
    }

    public ClusterOptions withFailureTimeout(Duration value) {
        return new ClusterOptions(rank, nodes, hosts, discoveryDir, loopbackGroup, joinTimeout, distributedCache, hops,
                l3Timeout, partitionedStart, startWindow, fingerprint, faults, value, security, stragglers);
    }

    public ClusterOptions withStragglers(Stragglers value) {
        return new ClusterOptions(rank, nodes, hosts, discoveryDir, loopbackGroup, joinTimeout, distributedCache, hops,
                l3Timeout, partitionedStart, startWindow, fingerprint, faults, failureTimeout, security, value);
    }

    public ClusterOptions withSecurity(ClusterSecurity value) {
        return new ClusterOptions(rank, nodes, hosts, discoveryDir, loopbackGroup, joinTimeout, distributedCache, hops,
                l3Timeout, partitionedStart, startWindow, fingerprint, faults, failureTimeout, value, stragglers);
    }
}
