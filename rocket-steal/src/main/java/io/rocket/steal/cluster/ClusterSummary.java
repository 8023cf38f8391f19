package io.rocket.steal.cluster;

import io.rocket.core.summary.CacheStats;
import io.rocket.core.summary.InputTraffic;
import io.rocket.core.summary.PerformanceModel;
import io.rocket.core.summary.RunSummary;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Rank 0's summary of a cluster run: totals over the nodes' reports (loads, caches, L3 hits per hop, steals, parts
 * taken over from slower nodes, bytes), the start window, the performance model for the cluster as one scope (see
 * {@link PerformanceModel}: fills are loads from storage, items needed the union of the nodes', kernel times and
 * device-seconds summed over every node), and the per-node figures themselves.
 */
final class ClusterSummary {
    private ClusterSummary() {
    }

    static RunSummary build(String app, int n, double wall, long pairs, long errors, RunSummary rank0,
                            Map<Integer, NodeReport> reports, ClusterOptions cluster, int startWindow) {
        RunSummary s = new RunSummary();
        s.app = app;
        s.items = n;
        s.pairs = pairs;
        s.errors = errors;
        s.pairsComputed = pairs + errors;
        s.wallSeconds = wall;
        s.pairsPerSecond = wall > 0 ? pairs / wall : 0;
        Map<Integer, NodeReport> byRank = new TreeMap<>(reports);
        long loads = 0;
        long devices = 0;
        long capacity = 0;
        double deviceSeconds = 0;
        BitSet itemsNeeded = new BitSet(n);
        long preCount = 0;
        double preSeconds = 0;
        long cmpCount = 0;
        double cmpSeconds = 0;
        long l3Requests = 0;
        long l3Misses = 0;
        long l3HomeLoads = 0;
        long l3Timeouts = 0;
        long[] hitsByHop = new long[cluster.hops() + 1];
        long remoteAttempts = 0;
        long helpAttempts = 0;
        long helps = 0;
        long duplicated = 0;
        long remoteSuccesses = 0;
        long localAttempts = 0;
        long localSuccesses = 0;
        long bytesSent = 0;
        CacheStats device = new CacheStats(0, 0, 0, 0, 0, 0);
        CacheStats host = new CacheStats(0, 0, 0, 0, 0, 0);
        List<Map<String, Object>> nodes = new ArrayList<>();
        Map<String, InputTraffic.Figures> inputs = new TreeMap<>();
        Map<String, Long> readAhead = new LinkedHashMap<>();
        Map<String, Long> diskCache = new LinkedHashMap<>();
        for (NodeReport r : byRank.values()) {
            r.map("inputs").forEach((scheme, o) -> {
                if (o instanceof Map<?, ?> m) {
                    InputTraffic.Figures node = new InputTraffic.Figures(n(m.get("files")), n(m.get("bytes")),
                            real(m.get("read_seconds")), 0, 0);
                    inputs.merge(scheme, node, (a, b) -> a.plus(b, wall));
                }
            });
            r.map("read_ahead").forEach((k, v) -> readAhead.merge(k, n(v), Long::sum));
            r.map("disk_cache").forEach((k, v) -> diskCache.merge(k, n(v), Long::sum));
            nodes.add(r.published());
            loads += r.number("loads");
            devices += r.number("devices");
            deviceSeconds += r.real("device_seconds");
            itemsNeeded.or(r.itemsNeeded());
            preCount += r.number("preprocess_count");
            preSeconds += r.real("preprocess_seconds");
            cmpCount += r.number("compare_count");
            cmpSeconds += r.real("compare_seconds");
            bytesSent += r.number("bytes_sent");
            Map<String, Object> l3 = r.map("l3");
            l3Requests += num(l3, "requests");
            l3Misses += num(l3, "misses");
            l3HomeLoads += num(l3, "home_loads");
            l3Timeouts += num(l3, "timeouts");
            Object hops = l3.get("hits_by_hop");
            if (hops instanceof List<?> list) {
                for (int h = 0; h < list.size() && h + 1 < hitsByHop.length; h++) {
                    hitsByHop[h + 1] += ((Number) list.get(h)).longValue();
                }
            }
            Map<String, Object> steals = r.map("steals");
            remoteAttempts += num(steals, "remote_attempts");
            remoteSuccesses += num(steals, "remote_successes");
            helpAttempts += num(steals, "help_attempts");
            helps += num(steals, "helps");
            duplicated += num(steals, "duplicated_pairs");
            localAttempts += num(steals, "local_attempts");
            localSuccesses += num(steals, "local_successes");
            Map<String, Object> cache = r.map("cache");
            CacheStats nodeDevice = cacheStats(cache.get("device"));
            CacheStats nodeHost = cacheStats(cache.get("host"));
            capacity += nodeDevice.slots() + nodeHost.slots();
            device = device.plus(nodeDevice);
            host = host.plus(nodeHost);
        }
        s.loads = loads;
        // The cluster as one scope: an item enters the cluster's memory only by a load (a fetch takes it from
        // another node's L2), so loads are its fills; it holds what all nodes' L2 and L1 slots hold. Without the
        // distributed cache the same bound holds, it is only further from what nodes that cannot share reach.
        s.model(new PerformanceModel.Work(itemsNeeded.cardinality(), loads, capacity, pairs, preCount, preSeconds,
                cmpCount, cmpSeconds, deviceSeconds));
        s.devices = rank0.devices;
        s.cache.put("device", device);
        s.cache.put("host", host);
        // plus() derives the rates; a scheme only one node read still needs them.
        inputs.replaceAll((scheme, f) -> f.plus(InputTraffic.Figures.NONE, wall));
        s.inputs = inputs;
        s.readAhead = readAhead;
        if (!diskCache.isEmpty()) {
            s.cache.put("disk", new CacheStats(diskCache.getOrDefault("entries", 0L), 0,
                    diskCache.getOrDefault("hits", 0L), diskCache.getOrDefault("misses", 0L),
                    diskCache.getOrDefault("evictions", 0L), 0));
            s.diskCache = diskCache;
        }
        s.stepSeconds = rank0.stepSeconds;
        s.busySeconds = rank0.busySeconds;
        s.deviceBusySeconds = rank0.deviceBusySeconds;
        s.failures = rank0.failures;
        long l3Hits = 0;
        List<Long> hops = new ArrayList<>();
        for (int h = 1; h < hitsByHop.length; h++) {
            l3Hits += hitsByHop[h];
            hops.add(hitsByHop[h]);
        }
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("nodes", byRank.size());
        c.put("devices", devices);
        c.put("distributed_cache", cluster.distributedCache());
        c.put("hops", cluster.hops());
        c.put("l3_requests", l3Requests);
        c.put("l3_hits", l3Hits);
        c.put("l3_hits_by_hop", hops);
        c.put("l3_first_hop_rate", l3Requests == 0 ? 0.0 : (double) hitsByHop[1] / l3Requests);
        c.put("l3_misses", l3Misses);
        c.put("l3_home_loads", l3HomeLoads);
        c.put("l3_timeouts", l3Timeouts);
        c.put("steals_local", localSuccesses + "/" + localAttempts);
        c.put("steals_remote", remoteSuccesses + "/" + remoteAttempts);
        c.put("start_window", startWindow);
        c.put("helps", helps + "/" + helpAttempts);
        c.put("duplicated_pairs", duplicated);
        c.put("bytes_sent", bytesSent);
        s.cluster = c;
        s.nodes = nodes;
        return s;
    }

    private static long num(Map<String, Object> m, String key) {
        Object v = m.get(key);
        return v instanceof Number x ? x.longValue() : 0;
    }

    private static CacheStats cacheStats(Object o) {
        if (!(o instanceof Map<?, ?> m)) {
            return new CacheStats(0, 0, 0, 0, 0, 0);
        }
        return new CacheStats(n(m.get("slots")), n(m.get("slot_bytes")), n(m.get("hits")), n(m.get("misses")),
                n(m.get("evictions")), n(m.get("waits")));
    }

    private static double real(Object o) {
        return o instanceof Number x ? x.doubleValue() : 0;
    }

    private static long n(Object o) {
        return o instanceof Number x ? x.longValue() : 0;
    }
}
