package io.rocket.cluster;

import io.rocket.cluster.l3.L3Stats;
import io.rocket.core.summary.CacheStats;
import io.rocket.core.summary.InputTraffic;
import io.rocket.core.summary.RunSummary;
import io.rocket.core.trace.Telemetry;
import io.rocket.core.trace.TraceEvent;
import io.rocket.node.NodePipeline;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One node's figures at the end of a cluster run, sent to rank 0 for the summary: what it computed and loaded, its
 * performance-model figures for its share, its caches, its L3 traffic, data-plane bytes and steals, the kernel time
 * sums the cluster's model needs, and what it read. {@link #total} merges the nodes' figures into the cluster's (the
 * one place they are added up), {@link #published} is the form summaries show per node, and {@link NodeFiguresWire}
 * their binary form on the wire.
 *
 * @param itemsNeededSet the items its pairs needed, as a set: rank 0 needs their union; travels, never shown
 * @param reuse          R for its share, null when undefined (as are the three other boxed figures)
 * @param l3             its L3 traffic, null without the distributed cache
 * @param failures       the errors of the items it could not load
 */
public record NodeFigures(int rank, long devices, long pairs, long errors, long itemsNeeded, BitSet itemsNeededSet,
                   long loads, Double reuse, Double reuseLowerBound, Double tMinSeconds, double deviceSeconds,
                   Double systemEfficiency, CacheStats deviceCache, CacheStats hostCache, L3 l3, long bytesSent,
                   long bytesReceived, Steals steals, long preprocessCount, double preprocessSeconds,
                   long compareCount, double compareSeconds, double wallSeconds,
                   Map<String, InputTraffic.Figures> inputs, Map<String, Long> readAhead,
                   Map<String, Long> diskCache, List<String> failures) {

    /** A node's distributed-cache traffic; {@code hitsByHop[h - 1]} are its hits at hop h. */
    record L3(long requests, long hits, long[] hitsByHop, long misses, long timeouts, long served, long homeLoads) {
        static final L3 NONE = new L3(0, 0, new long[0], 0, 0, 0, 0);

        public static L3 of(L3Stats s) {
            long[] byHop = new long[s.hops()];
            for (int h = 1; h <= s.hops(); h++) {
                byHop[h - 1] = s.hitsAtHop(h);
            }
            return new L3(s.requests(), s.hits(), byHop, s.misses(), s.timeouts(), s.served(), s.homeLoads());
        }

        L3 plus(L3 o) {
            long[] byHop = new long[Math.max(hitsByHop.length, o.hitsByHop.length)];
            for (int h = 0; h < byHop.length; h++) {
                byHop[h] = (h < hitsByHop.length ? hitsByHop[h] : 0) + (h < o.hitsByHop.length ? o.hitsByHop[h] : 0);
            }
            return new L3(requests + o.requests, hits + o.hits, byHop, misses + o.misses, timeouts + o.timeouts,
                    served + o.served, homeLoads + o.homeLoads);
        }

        List<Long> hitsByHopList() {
            List<Long> list = new ArrayList<>(hitsByHop.length);
            for (long hits : hitsByHop) {
                list.add(hits);
            }
            return list;
        }
    }

    /** A node's steals: from its own workers, from other nodes, parts taken over, and end-game duplicates. */
    public record Steals(long localAttempts, long localSuccesses, long remoteAttempts, long remoteSuccesses,
                  long regionsLent, long helpAttempts, long helps, long duplicateAttempts, long duplicatedPairs) {
        static final Steals NONE = new Steals(0, 0, 0, 0, 0, 0, 0, 0, 0);

        Steals plus(Steals o) {
            return new Steals(localAttempts + o.localAttempts, localSuccesses + o.localSuccesses,
                    remoteAttempts + o.remoteAttempts, remoteSuccesses + o.remoteSuccesses, regionsLent + o.regionsLent,
                    helpAttempts + o.helpAttempts, helps + o.helps, duplicateAttempts + o.duplicateAttempts,
                    duplicatedPairs + o.duplicatedPairs);
        }
    }

    private static final CacheStats NO_CACHE = new CacheStats(0, 0, 0, 0, 0, 0);

    /**
     * This node's figures: {@code own} is the summary of its share, {@code pairs} the pair jobs it ran.
     *
     * @param l3 its distributed cache's counters, or null without one
     */
    public static NodeFigures of(int rank, int devices, long pairs, NodePipeline<?, ?> pipeline, Telemetry t, RunSummary own,
                          L3Stats l3, long bytesSent, long bytesReceived, Steals steals) {
        Map<String, InputTraffic.Figures> inputs = new LinkedHashMap<>(own.inputs);
        return new NodeFigures(rank, devices, pairs, pipeline.pairErrors(), own.itemsNeeded, pipeline.itemsNeeded(),
                pipeline.loads(), own.reuse, own.reuseLowerBound, own.tMinSeconds, own.deviceSeconds,
                own.systemEfficiency, pipeline.deviceCacheStats(), pipeline.hostCacheStats(),
                l3 == null ? null : L3.of(l3), bytesSent, bytesReceived, steals, t.count(TraceEvent.PREPROCESS),
                t.totalSeconds(TraceEvent.PREPROCESS), t.count(TraceEvent.COMPARE),
                t.totalSeconds(TraceEvent.COMPARE), own.wallSeconds, inputs, new LinkedHashMap<>(own.readAhead),
                new LinkedHashMap<>(own.diskCache), own.failures.stream().map(RunSummary.Failure::error).toList());
    }

    /**
     * The cluster's figures: every count summed, the items needed united, caches, L3 and steals added, inputs
     * merged over {@code wall} (their rates recomputed). What only a node has (its rank, its R and bounds) is left
     * undefined; the summary derives the cluster's own from these totals.
     */
    static NodeFigures total(Collection<NodeFigures> nodes, int items, double wall) {
        long devices = 0;
        long pairs = 0;
        long errors = 0;
        BitSet needed = new BitSet(items);
        long loads = 0;
        double deviceSeconds = 0;
        CacheStats device = NO_CACHE;
        CacheStats host = NO_CACHE;
        L3 l3 = L3.NONE;
        long sent = 0;
        long received = 0;
        Steals steals = Steals.NONE;
        long preCount = 0;
        double preSeconds = 0;
        long cmpCount = 0;
        double cmpSeconds = 0;
        Map<String, InputTraffic.Figures> inputs = new TreeMap<>();
        Map<String, Long> readAhead = new LinkedHashMap<>();
        Map<String, Long> diskCache = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        for (NodeFigures f : nodes.stream().sorted(Comparator.comparingInt(NodeFigures::rank)).toList()) {
            devices += f.devices;
            pairs += f.pairs;
            errors += f.errors;
            needed.or(f.itemsNeededSet);
            loads += f.loads;
            deviceSeconds += f.deviceSeconds;
            device = device.plus(f.deviceCache);
            host = host.plus(f.hostCache);
            l3 = f.l3 == null ? l3 : l3.plus(f.l3);
            sent += f.bytesSent;
            received += f.bytesReceived;
            steals = steals.plus(f.steals);
            preCount += f.preprocessCount;
            preSeconds += f.preprocessSeconds;
            cmpCount += f.compareCount;
            cmpSeconds += f.compareSeconds;
            f.inputs.forEach((scheme, x) -> inputs.merge(scheme, x, (a, b) -> a.plus(b, wall)));
            f.readAhead.forEach((k, v) -> readAhead.merge(k, v, Long::sum));
            f.diskCache.forEach((k, v) -> diskCache.merge(k, v, Long::sum));
            failures.addAll(f.failures);
        }
        // plus() derives the rates; a scheme only one node read still needs them.
        inputs.replaceAll((scheme, x) -> x.plus(InputTraffic.Figures.NONE, wall));
        return new NodeFigures(-1, devices, pairs, errors, needed.cardinality(), needed, loads, null, null, null,
                deviceSeconds, null, device, host, l3, sent, received, steals, preCount, preSeconds, cmpCount,
                cmpSeconds, wall, inputs, readAhead, diskCache, failures);
    }

    /** The figures as summaries show them per node (the JSON's {@code nodes[]}), without what only travels. */
    public Map<String, Object> published() {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("rank", rank);
        f.put("devices", devices);
        f.put("pairs", pairs);
        f.put("errors", errors);
        f.put("items_needed", itemsNeeded);
        f.put("loads", loads);
        putDefined(f, "R", reuse);
        putDefined(f, "R_lower_bound", reuseLowerBound);
        putDefined(f, "t_min_seconds", tMinSeconds);
        f.put("device_seconds", deviceSeconds);
        putDefined(f, "system_efficiency", systemEfficiency);
        Map<String, Object> cache = new LinkedHashMap<>();
        cache.put("device", cache(deviceCache));
        cache.put("host", cache(hostCache));
        f.put("cache", cache);
        if (l3 != null) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("requests", l3.requests);
            m.put("hits", l3.hits);
            m.put("hits_by_hop", l3.hitsByHopList());
            m.put("misses", l3.misses);
            m.put("timeouts", l3.timeouts);
            m.put("served", l3.served);
            m.put("home_loads", l3.homeLoads);
            f.put("l3", m);
        }
        f.put("bytes_sent", bytesSent);
        f.put("bytes_received", bytesReceived);
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("local_attempts", steals.localAttempts);
        s.put("local_successes", steals.localSuccesses);
        s.put("remote_attempts", steals.remoteAttempts);
        s.put("remote_successes", steals.remoteSuccesses);
        s.put("regions_lent", steals.regionsLent);
        s.put("help_attempts", steals.helpAttempts);
        s.put("helps", steals.helps);
        s.put("duplicate_attempts", steals.duplicateAttempts);
        s.put("duplicated_pairs", steals.duplicatedPairs);
        f.put("steals", s);
        f.put("preprocess_count", preprocessCount);
        f.put("preprocess_seconds", preprocessSeconds);
        f.put("compare_count", compareCount);
        f.put("compare_seconds", compareSeconds);
        f.put("wall_seconds", wallSeconds);
        Map<String, Object> read = new LinkedHashMap<>();
        inputs.forEach((scheme, x) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("files", x.files());
            m.put("bytes", x.bytes());
            m.put("read_seconds", x.readSeconds());
            read.put(scheme, m);
        });
        f.put("inputs", read);
        f.put("read_ahead", readAhead);
        f.put("disk_cache", diskCache);
        f.put("failures", failures);
        return f;
    }

    private static Map<String, Object> cache(CacheStats s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("slots", s.slots());
        m.put("slot_bytes", s.slotBytes());
        m.put("hits", s.hits());
        m.put("misses", s.misses());
        m.put("evictions", s.evictions());
        m.put("waits", s.waits());
        m.put("hit_rate", s.hitRate());
        return m;
    }

    private static void putDefined(Map<String, Object> figures, String name, Double value) {
        if (value != null) {
            figures.put(name, value);
        }
    }
}
