package io.rocket.core.summary;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The figures of one run, as printed at the end and written by {@code --summary-json}: counts, wall time,
 * throughput, reuse (loads and R), cache counters per level, busy time per thread kind, measured mean step times
 * and the performance model's lower bound and system efficiency. Field names are the JSON names. R, its bound, T_min
 * and the efficiency are defined in {@link PerformanceModel} (for a single node, a cluster node's own share and a
 * whole cluster alike) and set only through {@link #model}; null, and absent from the JSON, where undefined.
 */
@JsonPropertyOrder({"app", "items", "pairs", "errors", "pairs_computed", "pairs_resumed", "pairs_reused", "wall_seconds",
        "pairs_per_second", "items_needed", "loads", "R", "R_lower_bound", "R_L1", "R_L1_lower_bound",
        "t_min_seconds", "device_seconds", "system_efficiency", "devices", "cache", "memory", "disk_cache", "inputs",
        "read_ahead", "reduction", "cluster",
        "step_seconds", "busy_seconds", "nodes", "failures"})
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public final class RunSummary {
    /** The application's {@link io.rocket.core.Application#name() name}. */
    public String app;
    /** The number of items (keys) in the job. */
    public long items;
    /** Pairs with a result, this run's and (on resume) the journal's. */
    public long pairs;
    /** Pairs that failed, this run's and (on resume) the journal's. */
    public long errors;
    /** Pairs this run computed or found failed (the rest were resumed from a journal or reused from a store). */
    @JsonProperty("pairs_computed")
    public long pairsComputed;
    /** Pairs taken from the journal of an earlier run of the same job ({@code --resume}). */
    @JsonProperty("pairs_resumed")
    public long pairsResumed;
    /** Pairs taken from the result store ({@code --store}): computed by earlier runs of the same job. */
    @JsonProperty("pairs_reused")
    public long pairsReused;
    /** The run's wall time in seconds, from the first item read to the last result delivered. */
    @JsonProperty("wall_seconds")
    public double wallSeconds;
    /** Pairs computed per second of wall time (this run's pairs only). */
    @JsonProperty("pairs_per_second")
    public double pairsPerSecond;
    /** Distinct items the pairs of this run (or of this node, on a cluster node) needed. */
    @JsonProperty("items_needed")
    public long itemsNeeded;
    /** Full loads (file, parse, preprocess) from storage or the disk cache. */
    public long loads;
    /** R, fills per item needed (1 is perfect reuse); see {@link PerformanceModel}. Null where undefined. */
    @JsonProperty("R")
    public Double reuse;
    /** The least R any schedule could reach with this run's caches (see {@link PerformanceModel}). */
    @JsonProperty("R_lower_bound")
    public Double reuseLowerBound;
    /** Copies into the devices' own caches (L1) per item needed; absent where every device reads L2 in place. */
    @JsonProperty("R_L1")
    public Double reuseL1;
    /** The least {@link #reuseL1} any schedule could reach with the devices' L1s. */
    @JsonProperty("R_L1_lower_bound")
    public Double reuseL1LowerBound;
    /** T_min, the lower bound on kernel time for this scope; see {@link PerformanceModel}. Null where undefined. */
    @JsonProperty("t_min_seconds")
    public Double tMinSeconds;
    /** Σ over nodes of devices × the time the node held them: the denominator of the efficiency. */
    @JsonProperty("device_seconds")
    public double deviceSeconds;
    /** What {@link #model} was given, so that {@link #pairSpace} can set the figures again. */
    @JsonIgnore
    private PerformanceModel.Work work;

    /** L1 copies, slots per device and devices with an L1, for R_L1; null without device caches. */
    @JsonIgnore
    private long[] l1;
    /** T_min ÷ device-seconds; see {@link PerformanceModel}. Null where undefined. */
    @JsonProperty("system_efficiency")
    public Double systemEfficiency;
    /** Each device's {@link io.rocket.core.device.Device#info() facts}, in device order. */
    public List<Map<String, Object>> devices = List.of();
    /** {@code device} (L1, all devices) and {@code host} (L2). */
    public Map<String, CacheStats> cache = new LinkedHashMap<>();

    /** What the node's memory holds, by kind, in bytes (see the outputs page). */
    public Map<String, Long> memory = new LinkedHashMap<>();
    /** The disk cache (L4): hits, misses, writes, corrupt entries found, evictions, bytes; empty without one. */
    @JsonProperty("disk_cache")
    public Map<String, Long> diskCache = new LinkedHashMap<>();
    /** Input files read, per URI scheme ({@code file}, {@code sftp}, {@code s3}, {@code https}). */
    public Map<String, InputTraffic.Figures> inputs = new TreeMap<>();
    /** Read-ahead in schedule order: its budget and what became of the files it fetched early. */
    @JsonProperty("read_ahead")
    public Map<String, Long> readAhead = new LinkedHashMap<>();
    /** Mean seconds per step: read, parse, h2d, preprocess, compare, d2h, postprocess. */
    @JsonProperty("step_seconds")
    public Map<String, Double> stepSeconds = new LinkedHashMap<>();
    /** Busy seconds per thread kind, summed over threads. */
    @JsonProperty("busy_seconds")
    public Map<String, Double> busySeconds = new LinkedHashMap<>();
    /** Busy seconds of each device's kernel thread, to judge balance. */
    @JsonProperty("device_busy_seconds")
    public List<Double> deviceBusySeconds = List.of();
    /** Cluster runs: figures per node (rank, pairs, loads, L3 hits per hop, bytes, steals, ...). */
    public List<Map<String, Object>> nodes = List.of();
    /** Runs with {@code --top-k}, {@code --min-score} or {@code --max-score}: the settings and what was kept. */
    public Map<String, Object> reduction = new LinkedHashMap<>();
    /** Cluster runs: totals of the distributed cache and stealing. */
    public Map<String, Object> cluster = new LinkedHashMap<>();
    /** Items that failed to load, with the reason. */
    public List<Failure> failures = List.of();

    /** An empty summary; the runtime fills in its fields (and Jackson, when one is read back). */
    public RunSummary() {
    }

    /**
     * One item that could not be loaded.
     *
     * @param item the item's index in the key array
     * @param key the item's {@link io.rocket.core.Application#label label}
     * @param error the reason, as shown to the user
     */
    public record Failure(int item, String key, String error) {
    }

    /**
     * Sets R, its lower bound, T_min and the efficiency from the scope's counts, the only place they are set.
     *
     * @param work what this summary's scope (the node, its share, or the cluster) did
     */
    public void model(PerformanceModel.Work work) {
        this.work = work;
        copiesModel();
        PerformanceModel.Figures f = PerformanceModel.figures(work);
        itemsNeeded = work.itemsNeeded();
        deviceSeconds = work.deviceSeconds();
        reuse = f.reuse();
        reuseLowerBound = f.reuseLowerBound();
        tMinSeconds = f.tMinSeconds();
        systemEfficiency = f.systemEfficiency();
    }

    /**
     * Sets R_L1 and its bound: {@code copies} items copied into the L1s of {@code devices} devices of
     * {@code slotsPerDevice} slots each (none where the devices read L2 in place: the figures stay absent).
     *
     * @param copies         L1 misses summed over the devices
     * @param slotsPerDevice the items one device's L1 holds at once
     * @param devices        devices with an L1
     */
    public void deviceCopies(long copies, long slotsPerDevice, int devices) {
        this.l1 = devices > 0 && slotsPerDevice > 0 ? new long[]{copies, slotsPerDevice, devices} : null;
        copiesModel();
    }

    private void copiesModel() {
        if (l1 == null || work == null || work.itemsNeeded() == 0) {
            reuseL1 = null;
            reuseL1LowerBound = null;
            return;
        }
        reuseL1 = (double) l1[0] / work.itemsNeeded();
        reuseL1LowerBound = PerformanceModel.reuseLowerBound(work.itemsNeeded(), work.pairs(), l1[1], (int) l1[2],
                work.density());
    }

    /**
     * Sets the figures again for a run of another pair space than the triangle the scope's {@link #model} assumed:
     * R's lower bound depends on how densely the space packs pairs among few items.
     *
     * @param space the run's pair space
     */
    public void pairSpace(PairDensity space) {
        if (work != null) {
            model(work.in(space));
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * Writes the summary as JSON.
     *
     * @param file the file to write, replaced if it exists; its directory must exist
     * @throws IOException when the file cannot be written
     */
    public void writeJson(Path file) throws IOException {
        JSON.writeValue(file.toFile(), this);
    }

    /**
     * The summary as JSON text.
     *
     * @return the summary as indented JSON, the same text {@link #writeJson} writes
     * @throws IOException when serialization fails (it does not for the field types used here)
     */
    public String toJson() throws IOException {
        return JSON.writeValueAsString(this);
    }

    /**
     * Adds what a resumed run took from its journal: {@code pairs}, {@code errors} and {@code failures} then describe
     * the whole job, while {@code pairs_computed}, the rates and the performance model stay this run's.
     *
     * @param resumed the number of pairs the journal recorded (results and failures)
     * @param resumedErrors how many of those pairs failed
     * @param resumedFailures the items the earlier run failed to load; merged with this run's by item, this run's
     *        reason winning
     */
    public void addResumed(long resumed, long resumedErrors, List<Failure> resumedFailures) {
        pairsResumed = resumed;
        addEarlier(resumed, resumedErrors, resumedFailures);
    }

    /**
     * Adds what a run took from its result store: as {@link #addResumed}, counted in {@code pairs_reused}.
     *
     * @param reused the number of pairs taken from the store (results and failures)
     * @param reusedErrors how many of those pairs failed
     * @param reusedFailures the items earlier runs failed to load; merged with this run's by item, this run's
     *        reason winning
     */
    public void addReused(long reused, long reusedErrors, List<Failure> reusedFailures) {
        pairsReused = reused;
        addEarlier(reused, reusedErrors, reusedFailures);
    }

    private void addEarlier(long resumed, long resumedErrors, List<Failure> resumedFailures) {
        pairs += resumed - resumedErrors;
        errors += resumedErrors;
        Map<Integer, Failure> byItem = new TreeMap<>();
        for (Failure f : resumedFailures) {
            byItem.put(f.item(), f);
        }
        for (Failure f : failures) {
            byItem.put(f.item(), f);
        }
        failures = List.copyOf(byItem.values());
    }

    /** An undefined figure reads "n/a" rather than a number that would mean something. */
    private static String figure(Double value, String format) {
        return value == null ? "n/a" : String.format(Locale.ROOT, format, value);
    }

    /**
     * The end of a run in a few lines: what was computed, in how long (a cluster run's time starts when the cluster
     * has formed), what a journal or store gave, and each failure. What a user sees by default.
     *
     * @return the lines, each ending with the platform's line separator; numbers formatted in the root locale
     */
    public String formatShort() {
        StringBuilder b = outcome();
        appendFailures(b);
        return b.toString();
    }

    private StringBuilder outcome() {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%s: %d items, %d pairs (%d errors) in %.3f s%s, %.0f pairs/s%n",
                app, items, pairs, errors, wallSeconds, cluster.isEmpty() ? "" : " since the cluster formed",
                pairsPerSecond));
        if (pairsResumed > 0) {
            b.append(String.format(Locale.ROOT, "resumed %d pairs from the journal, computed %d%n", pairsResumed,
                    pairsComputed));
        }
        if (pairsReused > 0) {
            b.append(String.format(Locale.ROOT, "reused %d pairs from the store, computed %d%n", pairsReused,
                    pairsComputed));
        }
        return b;
    }

    private void appendFailures(StringBuilder b) {
        for (Failure f : failures) {
            b.append("failed: ").append(f.error()).append(String.format("%n"));
        }
    }

    /**
     * {@link #formatShort} with the run's performance figures before the failures: loads and reuse, the cluster's
     * figures, cache hits per level, inputs, read-ahead, mean step times and busy time per resource.
     *
     * @return the lines, each ending with the platform's line separator; numbers formatted in the root locale
     */
    public String format() {
        StringBuilder b = outcome();
        b.append(String.format(Locale.ROOT, "loads %d, R = %s (lower bound %s); T_min = %s s, system efficiency %s%n",
                loads, figure(reuse, "%.2f"), figure(reuseLowerBound, "%.2f"), figure(tMinSeconds, "%.3f"),
                figure(systemEfficiency, "%.3f")));
        if (reuseL1 != null) {
            b.append(String.format(Locale.ROOT, "copies into device caches: R_L1 = %.2f (lower bound %.2f)%n",
                    reuseL1, reuseL1LowerBound));
        }
        if (!cluster.isEmpty()) {
            b.append("cluster:");
            cluster.forEach((k, v) -> b.append(' ').append(k).append(' ').append(v));
            b.append(String.format("%n"));
        }
        cache.forEach((level, s) -> b.append(String.format(Locale.ROOT,
                "cache %-6s %d slots: %d hits, %d misses, %d evictions, %d waits%n",
                level, s.slots(), s.hits(), s.misses(), s.evictions(), s.waits())));
        if (!memory.isEmpty()) {
            b.append(String.format(Locale.ROOT, "memory: items %.1f MB in L2%s, staging %.1f MB%s%n",
                    memory.getOrDefault("host_cache_bytes", 0L) / 1e6,
                    memory.getOrDefault("devices_reading_in_place", 0L) > 0 ? " (read in place)" : "",
                    memory.getOrDefault("host_staging_bytes", 0L) / 1e6,
                    memory.getOrDefault("device_cache_bytes", 0L) > 0 ? String.format(Locale.ROOT,
                            "; device caches %.1f MB, device staging %.1f MB",
                            memory.get("device_cache_bytes") / 1e6,
                            memory.getOrDefault("device_staging_bytes", 0L) / 1e6) : ""));
        }
        inputs.forEach((scheme, f) -> b.append(String.format(Locale.ROOT,
                "inputs %-6s %d files, %.1f MB, %.1f MB/s over the run (%.1f MB/s per read stream)%n",
                scheme, f.files(), f.bytes() / 1e6, f.mbPerSecond(), f.readMbPerSecond())));
        if (!readAhead.isEmpty()) {
            b.append("read-ahead:");
            readAhead.forEach((k, v) -> b.append(' ').append(k.replace('_', ' ')).append(' ').append(v));
            b.append(String.format("%n"));
        }
        b.append("mean step ms:");
        stepSeconds.forEach((k, v) -> b.append(String.format(Locale.ROOT, " %s %.3f", k, v * 1e3)));
        b.append(String.format("%nbusy s:"));
        busySeconds.forEach((k, v) -> b.append(String.format(Locale.ROOT, " %s %.2f", k, v)));
        b.append(String.format("%n"));
        appendFailures(b);
        return b.toString();
    }
}
