package io.rocket.cluster;

import io.rocket.core.summary.CacheStats;
import io.rocket.core.summary.PerformanceModel;
import io.rocket.core.summary.RunSummary;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rank 0's summary of a cluster run: the nodes' figures merged ({@link NodeFigures#total}: loads, caches, L3 hits
 * per hop, steals, parts taken over from slower nodes, bytes), the start window, the performance model for the
 * cluster as one scope (see {@link PerformanceModel}: fills are loads from storage, items needed the union of the
 * nodes', kernel times and device-seconds summed over every node), what recovery did, and the per-node figures.
 */
public final class ClusterSummary {
    private ClusterSummary() {
    }

    /** What rank 0 alone knows of the run: its results and its recovery rounds. */
    public record Outcome(long pairs, long errors, long duplicateResults, int lostNodes, List<Integer> lostRanks,
                   long recomputedPairs) {
    }

    public static RunSummary build(String app, int n, double wall, Outcome outcome, RunSummary rank0,
                            Collection<NodeFigures> nodes, ClusterOptions cluster, int startWindow) {
        RunSummary s = new RunSummary();
        s.app = app;
        s.items = n;
        s.pairs = outcome.pairs();
        s.errors = outcome.errors();
        s.pairsComputed = s.pairs + s.errors;
        s.wallSeconds = wall;
        s.pairsPerSecond = wall > 0 ? s.pairs / wall : 0;
        NodeFigures total = NodeFigures.total(nodes, n, wall);
        s.loads = total.loads();
        // The cluster as one scope: an item enters the cluster's memory only by a load (a fetch takes it from
        // another node's L2), so loads are its fills; it holds what all nodes' L2 and L1 slots hold. Without the
        // distributed cache the same bound holds, it is only further from what nodes that cannot share reach.
        long capacity = total.deviceCache().slots() + total.hostCache().slots();
        s.model(new PerformanceModel.Work(total.itemsNeeded(), total.loads(), capacity, s.pairs,
                total.preprocessCount(), total.preprocessSeconds(), total.compareCount(), total.compareSeconds(),
                total.deviceSeconds()));
        s.devices = rank0.devices;
        s.cache.put("device", total.deviceCache());
        s.cache.put("host", total.hostCache());
        s.inputs = total.inputs();
        s.readAhead = total.readAhead();
        Map<String, Long> disk = total.diskCache();
        if (!disk.isEmpty()) {
            s.cache.put("disk", new CacheStats(disk.getOrDefault("entries", 0L), 0, disk.getOrDefault("hits", 0L),
                    disk.getOrDefault("misses", 0L), disk.getOrDefault("evictions", 0L), 0));
            s.diskCache = disk;
        }
        s.stepSeconds = rank0.stepSeconds;
        s.busySeconds = rank0.busySeconds;
        s.deviceBusySeconds = rank0.deviceBusySeconds;
        s.failures = rank0.failures;
        s.cluster = figures(total, nodes.size(), outcome, cluster, startWindow);
        s.nodes = nodes.stream().sorted(Comparator.comparingInt(NodeFigures::rank)).map(NodeFigures::published)
                .toList();
        return s;
    }

    /** The summary's {@code cluster} part. */
    private static Map<String, Object> figures(NodeFigures total, int nodes, Outcome outcome, ClusterOptions cluster,
                                               int startWindow) {
        NodeFigures.L3 l3 = total.l3();
        long[] byHop = l3.hitsByHop();
        long hits = 0;
        List<Long> hops = new ArrayList<>();
        for (int h = 0; h < cluster.hops(); h++) {
            long atHop = h < byHop.length ? byHop[h] : 0;
            hits += atHop;
            hops.add(atHop);
        }
        long firstHop = hops.isEmpty() ? 0 : hops.get(0);
        NodeFigures.Steals steals = total.steals();
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("nodes", nodes);
        c.put("devices", total.devices());
        c.put("distributed_cache", cluster.distributedCache());
        c.put("hops", cluster.hops());
        c.put("l3_requests", l3.requests());
        c.put("l3_hits", hits);
        c.put("l3_hits_by_hop", hops);
        c.put("l3_first_hop_rate", l3.requests() == 0 ? 0.0 : (double) firstHop / l3.requests());
        c.put("l3_misses", l3.misses());
        c.put("l3_home_loads", l3.homeLoads());
        c.put("l3_timeouts", l3.timeouts());
        c.put("steals_local", steals.localSuccesses() + "/" + steals.localAttempts());
        c.put("steals_remote", steals.remoteSuccesses() + "/" + steals.remoteAttempts());
        c.put("start_window", startWindow);
        c.put("helps", steals.helps() + "/" + steals.helpAttempts());
        c.put("duplicated_pairs", steals.duplicatedPairs());
        c.put("bytes_sent", total.bytesSent());
        c.put("lost_nodes", outcome.lostNodes());
        c.put("lost_ranks", outcome.lostRanks());
        c.put("recomputed_pairs", outcome.recomputedPairs());
        c.put("duplicate_results", outcome.duplicateResults());
        return c;
    }
}
