package io.rocket.runtime.status;

import io.rocket.cluster.NodeStatus;
import io.rocket.cluster.NodeStatus.Count;
import io.rocket.cluster.l3.L3Stats;
import io.rocket.core.DeviceKind;
import io.rocket.core.device.Device;
import io.rocket.core.device.DirectHostMemory;
import io.rocket.core.exec.ResourceExecutor;
import io.rocket.core.exec.ThreadKind;
import io.rocket.core.summary.CacheStats;
import io.rocket.node.NodePipeline;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Reads one node's live figures ({@link NodeStatus}) from the counters its parts keep anyway: the pipeline's caches,
 * errors and executors, the scheduler's steals, and in a cluster the distributed cache and the data plane. Reading
 * costs a few dozen counter reads; nothing is counted here, so a run pays for its status only when it is sampled.
 *
 * <p>Called from the node's one sampler thread only.
 */
public final class NodeProbe {
    private static final BufferPoolMXBean DIRECT = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)
            .stream().filter(b -> b.getName().equals("direct")).findFirst().orElse(null);

    /**
     * What only a cluster node has.
     *
     * @param l3            the distributed cache's counters, or null without it
     * @param bytesSent     item bytes the data plane sent
     * @param bytesReceived item bytes the data plane received
     * @param remoteSteals  regions taken from other nodes
     */
    public record Cluster(L3Stats l3, LongSupplier bytesSent, LongSupplier bytesReceived, LongSupplier remoteSteals) {
    }

    private final int rank;
    /** The host's name, looked up once per JVM ({@link #host}). */
    private static volatile String host;
    private final NodePipeline<?, ?> pipeline;
    private final LongSupplier pairs;
    private final LongSupplier localSteals;
    private final Cluster cluster;
    private final boolean[] gpuLanes;
    private final int gpus;
    private final long startNanos = System.nanoTime();
    private long lastNanos = startNanos;
    private long lastPairs;

    /**
     * @param rank        the node's rank
     * @param pipeline    the node's pipeline
     * @param devices     its devices, in the pipeline's lane order
     * @param pairs       the pairs it finished so far
     * @param localSteals regions its workers took from one another
     * @param cluster     the cluster's figures, or null on a single node
     */
    public NodeProbe(int rank, NodePipeline<?, ?> pipeline, List<Device> devices, LongSupplier pairs,
                     LongSupplier localSteals, Cluster cluster) {
        this.rank = rank;
        this.pipeline = pipeline;
        this.pairs = pairs;
        this.localSteals = localSteals;
        this.cluster = cluster;
        this.gpuLanes = new boolean[devices.size()];
        int count = 0;
        for (int d = 0; d < devices.size(); d++) {
            gpuLanes[d] = devices.get(d).kind() == DeviceKind.CUDA;
            count += gpuLanes[d] ? 1 : 0;
        }
        this.gpus = count;
    }

    /** @return the node's rank */
    public int rank() {
        return rank;
    }

    /**
     * The node's figures now; its rate is over the time since the last sample.
     *
     * @param state the node's state ({@code running}, {@code done})
     * @return the figures
     */
    public NodeStatus sample(String state) {
        long now = System.nanoTime();
        long done = pairs.getAsLong();
        double interval = (now - lastNanos) / 1e9;
        double rate = interval > 0 ? (done - lastPairs) / interval : 0;
        lastNanos = now;
        lastPairs = done;
        long[] counts = new long[Count.values().length];
        counts[Count.PAIRS.ordinal()] = done;
        counts[Count.PAIR_ERRORS.ordinal()] = pipeline.pairErrors();
        counts[Count.BAD_ITEMS.ordinal()] = pipeline.failures().size();
        CacheStats l1 = pipeline.deviceCacheStats();
        CacheStats l2 = pipeline.hostCacheStats();
        counts[Count.L1_HITS.ordinal()] = l1.hits();
        counts[Count.L1_MISSES.ordinal()] = l1.misses();
        counts[Count.L2_HITS.ordinal()] = l2.hits();
        counts[Count.L2_MISSES.ordinal()] = l2.misses();
        counts[Count.LOCAL_STEALS.ordinal()] = localSteals.getAsLong();
        if (cluster != null) {
            L3Stats l3 = cluster.l3();
            if (l3 != null) {
                counts[Count.L3_REQUESTS.ordinal()] = l3.requests();
                counts[Count.L3_HITS.ordinal()] = l3.hits();
                counts[Count.L3_MISSES.ordinal()] = l3.misses();
                counts[Count.L3_TIMEOUTS.ordinal()] = l3.timeouts();
            }
            counts[Count.BYTES_SENT.ordinal()] = cluster.bytesSent().getAsLong();
            counts[Count.BYTES_RECEIVED.ordinal()] = cluster.bytesReceived().getAsLong();
            counts[Count.REMOTE_STEALS.ordinal()] = cluster.remoteSteals().getAsLong();
        }
        // The host cache keeps no count of the bytes its items take now, only its capacity: the JVM's direct
        // buffers are what can be read, and are named for what they are.
        counts[Count.DIRECT_MEMORY_USED_BYTES.ordinal()] = DIRECT == null ? 0 : DIRECT.getMemoryUsed();
        counts[Count.DIRECT_MEMORY_MAX_BYTES.ordinal()] = DirectHostMemory.maxDirectBytes();
        return new NodeStatus(rank, host(), state, (now - startNanos) / 1e9, rate, counts, busyPerThread(), gpus,
                gpuBusy());
    }

    /** Busy seconds per thread of each kind: summed over a kind's threads, a kind of several would exceed the time. */
    private double[] busyPerThread() {
        double[] busy = new double[ThreadKind.values().length];
        int[] threads = new int[busy.length];
        for (ResourceExecutor e : pipeline.executors()) {
            busy[e.kind().ordinal()] += e.busyNanos() / 1e9;
            threads[e.kind().ordinal()] += e.threadCount();
        }
        for (int k = 0; k < busy.length; k++) {
            busy[k] = threads[k] == 0 ? 0 : busy[k] / threads[k];
        }
        return busy;
    }

    private double gpuBusy() {
        double gpuBusy = 0;
        List<Double> kernels = pipeline.deviceBusySeconds();
        for (int d = 0; d < kernels.size() && d < gpuLanes.length; d++) {
            gpuBusy += gpuLanes[d] ? kernels.get(d) : 0;
        }
        return gpuBusy;
    }

    /**
     * The host's name: a name-service lookup the first time (slow where the resolver is), remembered after.
     *
     * @return the name, or {@code localhost} when it cannot be found
     */
    static String host() {
        String name = host;
        if (name == null) {
            try {
                name = InetAddress.getLocalHost().getHostName();
            } catch (java.io.IOException e) {
                name = "localhost";
            }
            host = name;
        }
        return name;
    }
}
