package io.rocket.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.rocket.core.trace.TraceCounter;

import java.util.ArrayList;
import java.util.List;

/**
 * Cache hits and misses per level (L1 device, L2 host, L3 distributed) and the L3 requests by how they ended —
 * hit at hop 1, 2, ..., miss, timeout — per node, as the paper's distributed-cache plot (its Fig. 11). From the run
 * summary when there is one, else from the last sample of each node's counter tracks (which have no hops).
 *
 * @param source "summary" or "trace"
 * @param hops   the L3 breakdown, or null on a run without a distributed cache
 */
public record CacheFigures(String source, List<Level> levels, Hops hops) {

    /** One level's totals over all nodes; {@code misses} of L3 include its timeouts. */
    public record Level(String level, String label, long hits, long misses, long evictions, long requests) {
        static Level of(String level, String label, long hits, long misses, long evictions) {
            return new Level(level, label, hits, misses, evictions, hits + misses);
        }
    }

    /**
     * L3 requests by outcome.
     *
     * @param hops number of hops the hits are split into; 0 when the source does not split them (a trace)
     * @param rows one row per node, then one for all nodes when there are several
     */
    public record Hops(int hops, List<HopRow> rows) {
    }

    /** One node's L3 requests: hits at each hop (index 0 is hop 1), misses and timeouts. */
    public record HopRow(String label, long[] hitsByHop, long misses, long timeouts, long requests) {
    }

    public static CacheFigures of(RunTraces traces, JsonNode summary) {
        return summary != null && Json.at(summary, "cache") != null ? fromSummary(summary) : fromTrace(traces);
    }

    static CacheFigures fromSummary(JsonNode s) {
        List<Level> levels = new ArrayList<>();
        levels.add(Level.of("L1", "device cache (L1)", Json.whole(s, 0, "cache", "device", "hits"),
                Json.whole(s, 0, "cache", "device", "misses"), Json.whole(s, 0, "cache", "device", "evictions")));
        levels.add(Level.of("L2", "host cache (L2)", Json.whole(s, 0, "cache", "host", "hits"),
                Json.whole(s, 0, "cache", "host", "misses"), Json.whole(s, 0, "cache", "host", "evictions")));
        Hops hops = null;
        if (Json.at(s, "cluster", "l3_requests") != null) {
            long requests = Json.whole(s, 0, "cluster", "l3_requests");
            long misses = Json.whole(s, 0, "cluster", "l3_misses");
            long timeouts = Json.whole(s, 0, "cluster", "l3_timeouts");
            long[] byHop = longs(Json.at(s, "cluster", "l3_hits_by_hop"));
            long hits = Json.whole(s, sum(byHop), "cluster", "l3_hits");
            levels.add(Level.of("L3", "distributed cache (L3)", hits, misses + timeouts, 0));
            List<HopRow> rows = new ArrayList<>();
            int width = byHop.length;
            for (JsonNode node : Json.array(s, "nodes")) {
                long[] h = longs(Json.at(node, "l3", "hits_by_hop"));
                width = Math.max(width, h.length);
                rows.add(new HopRow("rank " + Json.whole(node, 0, "rank"), h, Json.whole(node, 0, "l3", "misses"),
                        Json.whole(node, 0, "l3", "timeouts"), Json.whole(node, 0, "l3", "requests")));
            }
            if (rows.size() != 1) {
                rows.add(new HopRow("all nodes", byHop, misses, timeouts, requests));
            }
            hops = new Hops(width, List.copyOf(rows));
        }
        return new CacheFigures("summary", List.copyOf(levels), hops);
    }

    static CacheFigures fromTrace(RunTraces traces) {
        long[] l1 = new long[3];
        long[] l2 = new long[3];
        long[] l3 = new long[3];
        boolean anyL3 = false;
        List<HopRow> rows = new ArrayList<>();
        for (NodeTrace node : traces.nodes()) {
            add(l1, node.counterTrack(TraceCounter.L1_DEVICE_CACHE.trackName()), "hits", "misses", "evictions");
            add(l2, node.counterTrack(TraceCounter.L2_HOST_CACHE.trackName()), "hits", "misses", "evictions");
            CounterTrack c = node.counterTrack(TraceCounter.L3_DISTRIBUTED_CACHE.trackName());
            if (c != null) {
                anyL3 = true;
                long requests = (long) c.last("requests");
                long hits = (long) c.last("hits");
                long misses = (long) c.last("misses");
                l3[0] += hits;
                l3[1] += misses;
                l3[2] += requests;
                rows.add(new HopRow(traces.label(node), new long[]{hits}, misses,
                        Math.max(0, requests - hits - misses), requests));
            }
        }
        List<Level> levels = new ArrayList<>();
        levels.add(Level.of("L1", "device cache (L1)", l1[0], l1[1], l1[2]));
        levels.add(Level.of("L2", "host cache (L2)", l2[0], l2[1], l2[2]));
        Hops hops = null;
        if (anyL3) {
            levels.add(Level.of("L3", "distributed cache (L3)", l3[0], Math.max(l3[1], l3[2] - l3[0]), 0));
            if (rows.size() > 1) {
                rows.add(new HopRow("all nodes", new long[]{l3[0]}, l3[1], Math.max(0, l3[2] - l3[0] - l3[1]),
                        l3[2]));
            }
            hops = new Hops(0, List.copyOf(rows));
        }
        return new CacheFigures("trace", List.copyOf(levels), hops);
    }

    private static void add(long[] into, CounterTrack track, String... series) {
        if (track == null) {
            return;
        }
        for (int k = 0; k < series.length; k++) {
            into[k] += (long) track.last(series[k]);
        }
    }

    private static long[] longs(JsonNode array) {
        if (array == null || !array.isArray()) {
            return new long[0];
        }
        long[] v = new long[array.size()];
        for (int k = 0; k < v.length; k++) {
            v[k] = array.get(k).asLong();
        }
        return v;
    }

    private static long sum(long[] v) {
        long s = 0;
        for (long x : v) {
            s += x;
        }
        return s;
    }
}
