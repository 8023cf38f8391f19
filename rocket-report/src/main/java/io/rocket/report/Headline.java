package io.rocket.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.rocket.core.summary.PerformanceModel;

/**
 * The run's headline figures: counts, wall time, throughput, the reuse factor R (loads per item, 1 is perfect)
 * and the performance model's T_min and system efficiency ((T_min / p) / T on p devices, as defined in
 * {@link PerformanceModel}). Taken from the run summary when there is one; otherwise estimated from the trace through
 * the same model (loads = preprocess tasks, T_min from the mean preprocess and compare task durations, wall time =
 * first task start to last task end). A figure neither source has is null.
 *
 * @param source "summary" or "trace"
 */
public record Headline(String app, String source, Long items, Long pairs, Long loads, Double reuse,
                       Double wallSeconds, Double pairsPerSecond, Double tMinSeconds, Double systemEfficiency,
                       Integer devices, Integer nodes) {

    /** The figures from {@code summary} (may be null), completed from the traces. */
    public static Headline of(RunTraces traces, JsonNode summary) {
        Headline t = fromTrace(traces);
        if (summary == null) {
            return t;
        }
        Integer devices = null;
        Long clusterDevices = Json.whole(summary, "cluster", "devices");
        if (clusterDevices != null) {
            devices = clusterDevices.intValue();
        } else if (Json.at(summary, "devices") != null && Json.at(summary, "devices").isArray()) {
            devices = Json.at(summary, "devices").size();
        }
        Long clusterNodes = Json.whole(summary, "cluster", "nodes");
        Integer nodes = clusterNodes != null ? Integer.valueOf(clusterNodes.intValue()) : Integer.valueOf(1);
        String app = Json.text(summary, "app");
        return new Headline(app != null ? app : t.app, "summary",
                or(Json.whole(summary, "items"), t.items), or(Json.whole(summary, "pairs"), t.pairs),
                or(Json.whole(summary, "loads"), t.loads), or(Json.real(summary, "R"), t.reuse),
                or(Json.real(summary, "wall_seconds"), t.wallSeconds),
                or(Json.real(summary, "pairs_per_second"), t.pairsPerSecond),
                or(Json.real(summary, "t_min_seconds"), t.tMinSeconds),
                or(Json.real(summary, "system_efficiency"), t.systemEfficiency),
                devices != null ? devices : t.devices, nodes);
    }

    /** The figures the traces alone give. */
    public static Headline fromTrace(RunTraces traces) {
        long n = traces.items();
        long pairs = traces.count("compare");
        long loads = traces.count("preprocess");
        if (loads == 0) {
            loads = traces.count("parse");
        }
        double wall = traces.spanSeconds();
        int devices = traces.threads(ResourceKind.KERNEL).size();
        long preprocesses = traces.count("preprocess");
        Double tPre = traces.meanSeconds("preprocess");
        Double tCmp = traces.meanSeconds("compare");
        // The summary's model (PerformanceModel), fed what the traces show: every item seen taken as needed, every
        // compare as a pair, and the devices held for the traced span. The traces do not give the cache sizes, so
        // R's lower bound stays unknown.
        PerformanceModel.Figures model = PerformanceModel.figures(new PerformanceModel.Work(n, loads, 0, pairs,
                preprocesses, tPre == null ? 0 : tPre * preprocesses, pairs, tCmp == null ? 0 : tCmp * pairs,
                devices * Math.max(0, wall)));
        Double tMin = tCmp == null ? null : model.tMinSeconds();
        Double efficiency = tMin == null ? null : model.systemEfficiency();
        String app = null;
        if (!traces.nodes().isEmpty()) {
            String name = traces.nodes().get(0).processName();
            int space = name.lastIndexOf(' ');
            app = space < 0 ? name : name.substring(space + 1);
        }
        return new Headline(app, "trace", n == 0 ? null : n, pairs, loads == 0 ? null : loads,
                n == 0 || loads == 0 ? null : (double) loads / n, wall > 0 ? wall : null,
                wall > 0 ? pairs / wall : null, tMin, efficiency, devices == 0 ? null : devices,
                traces.nodes().size());
    }

    private static <T> T or(T a, T b) {
        return a != null ? a : b;
    }
}
