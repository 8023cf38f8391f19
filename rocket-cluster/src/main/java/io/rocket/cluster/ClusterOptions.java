package io.rocket.cluster;

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

    /**
     * Node {@code rank} of a cluster whose nodes' control addresses are {@code hosts} in rank order (one node per
     * address), with the defaults of the command line: distributed cache on with one hop, partitioned start, start
     * windows sized automatically, an open cluster (see {@link #withSecurity}).
     */
    public static ClusterOptions ofHosts(int rank, List<InetSocketAddress> hosts) {
        return builder(rank, hosts.size()).hosts(hosts).build();
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

    /** An in-JVM test node, with timeouts short enough for tests. */
    public static ClusterOptions loopback(String group, int rank, int nodes) {
        return builder(rank, nodes).loopbackGroup(group).joinTimeout(Duration.ofSeconds(30))
                .l3Timeout(Duration.ofSeconds(2)).failureTimeout(Duration.ofSeconds(3)).build();
    }

    /**
     * Options for node {@code rank} of {@code nodes}, every other setting at the command line's default (see
     * {@link Builder}); give a discovery (hosts, a directory or a loopback group) before {@link Builder#build}.
     */
    public static Builder builder(int rank, int nodes) {
        return new Builder(rank, nodes);
    }

    /** A builder holding these options, to change some of them. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    public ClusterOptions withDistributedCache(boolean on, int h) {
        return toBuilder().distributedCache(on).hops(h).build();
    }

    public ClusterOptions withFaults(Faults value) {
        return toBuilder().faults(value).build();
    }

    public ClusterOptions withFingerprint(String value) {
        return toBuilder().fingerprint(value).build();
    }

    public ClusterOptions withL3Timeout(Duration value) {
        return toBuilder().l3Timeout(value).build();
    }

    public ClusterOptions withPartitionedStart(boolean on) {
        return toBuilder().partitionedStart(on).build();
    }

    public ClusterOptions withStragglers(Stragglers value) {
        return toBuilder().stragglers(value).build();
    }

    public ClusterOptions withSecurity(ClusterSecurity value) {
        return toBuilder().security(value).build();
    }

    /**
     * Cluster options one setting at a time: each starts at the command line's default (an open cluster, distributed
     * cache on with one hop and the default timeouts, partitioned start, start windows sized automatically), so a
     * caller names only what it changes. {@link #build} checks the whole as the record's constructor does.
     */
    public static final class Builder {
        private final int rank;
        private final int nodes;
        private List<InetSocketAddress> hosts = List.of();
        private Path discoveryDir;
        private String loopbackGroup;
        private Duration joinTimeout = DEFAULT_JOIN_TIMEOUT;
        private boolean distributedCache = true;
        private int hops = 1;
        private Duration l3Timeout = DEFAULT_L3_TIMEOUT;
        private boolean partitionedStart = true;
        private int startWindow = AUTO_WINDOW;
        private String fingerprint = "";
        private Faults faults = Faults.NONE;
        private Duration failureTimeout = DEFAULT_FAILURE_TIMEOUT;
        private ClusterSecurity security = ClusterSecurity.NONE;
        private Stragglers stragglers = Stragglers.DEFAULT;

        private Builder(int rank, int nodes) {
            this.rank = rank;
            this.nodes = nodes;
        }

        private Builder(ClusterOptions o) {
            this(o.rank, o.nodes);
            hosts = o.hosts;
            discoveryDir = o.discoveryDir;
            loopbackGroup = o.loopbackGroup;
            joinTimeout = o.joinTimeout;
            distributedCache = o.distributedCache;
            hops = o.hops;
            l3Timeout = o.l3Timeout;
            partitionedStart = o.partitionedStart;
            startWindow = o.startWindow;
            fingerprint = o.fingerprint;
            faults = o.faults;
            failureTimeout = o.failureTimeout;
            security = o.security;
            stragglers = o.stragglers;
        }

        public Builder hosts(List<InetSocketAddress> value) {
            hosts = value;
            return this;
        }

        public Builder discoveryDir(Path value) {
            discoveryDir = value;
            return this;
        }

        public Builder loopbackGroup(String value) {
            loopbackGroup = value;
            return this;
        }

        public Builder joinTimeout(Duration value) {
            joinTimeout = value;
            return this;
        }

        public Builder distributedCache(boolean on) {
            distributedCache = on;
            return this;
        }

        public Builder hops(int value) {
            hops = value;
            return this;
        }

        public Builder l3Timeout(Duration value) {
            l3Timeout = value;
            return this;
        }

        public Builder partitionedStart(boolean on) {
            partitionedStart = on;
            return this;
        }

        public Builder startWindow(int value) {
            startWindow = value;
            return this;
        }

        public Builder fingerprint(String value) {
            fingerprint = value;
            return this;
        }

        public Builder faults(Faults value) {
            faults = value;
            return this;
        }

        public Builder failureTimeout(Duration value) {
            failureTimeout = value;
            return this;
        }

        public Builder security(ClusterSecurity value) {
            security = value;
            return this;
        }

        public Builder stragglers(Stragglers value) {
            stragglers = value;
            return this;
        }

        /** The options; throws {@link IllegalArgumentException} as the record's constructor does. */
        public ClusterOptions build() {
            return new ClusterOptions(rank, nodes, hosts, discoveryDir, loopbackGroup, joinTimeout, distributedCache,
                    hops, l3Timeout, partitionedStart, startWindow, fingerprint, faults, failureTimeout, security,
                    stragglers);
        }
    }
}
