package io.rocket.core.summary;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What every field of the run summary ({@code --summary-json}) means: its definition, unit and bounds, in one place.
 * The reference page {@code docs/reference/summary.md} is generated from this list, and the tests walk the JSON of
 * real single-node and cluster runs and check that every field they find is listed here and within its bounds, so a
 * field added without a definition, or a figure that leaves its bounds, fails the build.
 *
 * <p>Paths name a field by its keys from the top, {@code .} between keys, {@code []} for the elements of a list and
 * {@code {name}} for a key that varies (a cache level, a URI scheme, a step).
 */
public final class SummaryFields {

    /** The values a field may take. */
    public enum Bound {
        /** Text, a flag, or a ratio written as text: no numeric bound. */
        NONE("—"),
        /** A count, a duration, a size or a rate. */
        NON_NEGATIVE("≥ 0"),
        /** A share: hits over requests, time over time. */
        FRACTION("0..1"),
        /** At least one. */
        AT_LEAST_ONE("≥ 1"),
        /** R: at least the {@code R_lower_bound} beside it (itself at least 1). */
        AT_LEAST_R_LOWER_BOUND("≥ `R_lower_bound`");

        private final String text;

        Bound(String text) {
            this.text = text;
        }

        /**
         * How the reference writes the bound.
         *
         * @return the bound as Markdown, such as {@code ≥ 0}
         */
        public String text() {
            return text;
        }
    }

    /**
     * One field.
     *
     * @param path       the field's path (see the class comment)
     * @param unit       its unit, {@code ""} for none
     * @param bound      the values it may take
     * @param definition what it is (Markdown, one or two sentences)
     */
    public record Field(String path, String unit, Bound bound, String definition) {
        /**
         * The path as a pattern over concrete paths.
         *
         * @return a pattern that {@code cache.host.hits} matches for the path {@code cache.{level}.hits}
         */
        public Pattern pattern() {
            StringBuilder regex = new StringBuilder();
            for (String part : path.split("(?=\\{)|(?<=})")) {
                regex.append(part.startsWith("{") ? "[^.\\[]+" : Pattern.quote(part));
            }
            return Pattern.compile(regex.toString());
        }

        /**
         * The top-level key the field belongs to.
         *
         * @return the first key of the path, such as {@code cache}
         */
        public String section() {
            int end = path.length();
            for (char c : new char[] {'.', '['}) {
                int i = path.indexOf(c);
                if (i >= 0) {
                    end = Math.min(end, i);
                }
            }
            return path.substring(0, end);
        }
    }

    private static final String C = "C, the items the scope can hold at once: its L2 slots plus every device's L1 "
            + "slots (a cluster's summed over nodes)";
    private static final String CACHE = "Counters of one cache level, `{level}` = `device` (L1, summed over the "
            + "node's devices), `host` (L2) or `disk` (the disk cache, where `slots` is its entries): ";
    private static final String NODE = "Cluster runs, one entry per node, for that node's own share: ";

    /** Every field, in the order of the JSON. */
    public static final List<Field> ALL = List.of(
            f("app", "", Bound.NONE, "The application: the command (`synthetic`, `forensics`, …) or the class run by "
                    + "`io.rocket.Main`."),
            f("items", "items", Bound.NON_NEGATIVE, "n, the items of the job."),
            f("pairs", "pairs", Bound.NON_NEGATIVE, "Pairs with a result: in a cluster summary the distinct pairs "
                    + "rank 0 holds, in a node's own summary the pairs it ran; with `--resume` or `--store`, the whole "
                    + "job's."),
            f("errors", "pairs", Bound.NON_NEGATIVE, "Pairs that failed because an item could not be loaded."),
            f("pairs_computed", "pairs", Bound.NON_NEGATIVE, "Pairs this run computed or found failed (0 when every "
                    + "pair came from the journal or the store)."),
            f("pairs_resumed", "pairs", Bound.NON_NEGATIVE, "Pairs taken from the journal of an earlier run of the "
                    + "same job (`--resume`)."),
            f("pairs_reused", "pairs", Bound.NON_NEGATIVE, "Pairs taken from the result store (`--store`): computed "
                    + "by earlier runs of the same job for two items whose identities (label, file sizes and times) "
                    + "the store knows."),
            f("wall_seconds", "s", Bound.NON_NEGATIVE, "T, from the start of the run to its last pair (cluster: "
                    + "rank 0's)."),
            f("pairs_per_second", "pairs/s", Bound.NON_NEGATIVE, "`pairs` ÷ `wall_seconds` (before pairs resumed from "
                    + "a journal or reused from a store are added)."),
            f("items_needed", "items", Bound.NON_NEGATIVE, "m, the distinct items the scope's pairs used (at most n)."),
            f("loads", "loads", Bound.NON_NEGATIVE, "Full loads: read, parse and preprocess (a disk-cache hit "
                    + "counts, as it stands for read and parse)."),
            f("R", "fills/item", Bound.AT_LEAST_R_LOWER_BOUND, "Fills ÷ m. A fill is an item entering the scope's "
                    + "memory from outside: for a node an L2 miss (a load, or a fetch from another node's L2), for a "
                    + "cluster a load from storage. Memory starts empty, so R ≥ 1; 1 is perfect reuse. Absent when no "
                    + "item was needed."),
            f("R_lower_bound", "fills/item", Bound.AT_LEAST_ONE, "max(1, C·(P − d(C)) ÷ (d(2C)·m)) for P pairs, d(k) "
                    + "being the most pairs of the run's pair space among any k items (k(k − 1)/2 for every pair of "
                    + "one list, which gives (P − C(C − 1)/2) ÷ ((2C − 1)·m); about k²/4 for queries against other "
                    + "references; twice as many when ordered): while C items are held at most 2C are at hand in the "
                    + "time of C fills, so no schedule does better; " + C + " (worked out per space in the design page "
                    + "Cache-aware order)."),
            f("R_L1", "copies/item", Bound.NON_NEGATIVE, "Copies into the devices' own caches (L1 misses, summed "
                    + "over the devices) ÷ m. Absent where every device reads L2 in place (cpu): nothing is copied."),
            f("R_L1_lower_bound", "copies/item", Bound.AT_LEAST_ONE, "max(1, C₁·(P − D·d(C₁)) ÷ (d(2C₁)·m)) for D "
                    + "devices whose L1s hold C₁ items each: the bound of `R_lower_bound` for each device's L1, summed "
                    + "over the devices (worked out in the design page Cache-aware order, \"Every level\")."),
            f("t_min_seconds", "s", Bound.NON_NEGATIVE, "T_min, the paper's lower bound on kernel time (eq. 4): "
                    + "min(m, preprocess kernels run)·t_pre + P·t_cmp with the scope's mean kernel times; items that "
                    + "arrive preprocessed (from a peer or the disk cache) need no preprocess."),
            f("device_seconds", "s", Bound.NON_NEGATIVE, "Σ over the scope's nodes of devices × the time the node held "
                    + "them (to its last pair job's end): on one node p·T."),
            f("system_efficiency", "", Bound.FRACTION, "`t_min_seconds` ÷ `device_seconds`; on one node the paper's "
                    + "(T_min / p) ÷ T (eq. 5). Absent when there was no work."),
            f("devices[].name", "", Bound.NONE, "The device's name (`cpu0`, a GPU's product name)."),
            f("devices[].kind", "", Bound.NONE, "`cpu`, `sim` or `cuda`."),
            f("devices[].cores", "threads", Bound.NON_NEGATIVE, "cpu devices: the kernel threads of the device."),
            f("devices[].{fact}", "", Bound.NONE, "cuda devices: the GPU's facts (memory, multiprocessors, compute "
                    + "capability)."),
            f("cache.{level}.slots", "slots", Bound.NON_NEGATIVE, CACHE + "the slots; for a cache sized in bytes "
                    + "(the host cache on plain host memory, the device caches of cpu and sim devices), the most items "
                    + "it held at once, its capacity in items for the run's actual item sizes."),
            f("cache.{level}.slot_bytes", "bytes", Bound.NON_NEGATIVE, CACHE + "the size of one slot; for a cache "
                    + "sized in bytes, the largest item it takes (the application's declared maximum)."),
            f("cache.{level}.hits", "requests", Bound.NON_NEGATIVE, CACHE + "requests served by a slot already "
                    + "holding (or loading) the item."),
            f("cache.{level}.misses", "requests", Bound.NON_NEGATIVE, CACHE + "requests that had to bring the item "
                    + "into the level; the requests of the level below."),
            f("cache.{level}.evictions", "slots", Bound.NON_NEGATIVE, CACHE + "slots given to another item."),
            f("cache.{level}.waits", "requests", Bound.NON_NEGATIVE, CACHE + "requests that waited for an item another "
                    + "job was loading."),
            f("cache.{level}.hit_rate", "", Bound.FRACTION, CACHE + "hits ÷ (hits + misses), 0 with no requests."),
            f("memory.host_cache_bytes", "bytes", Bound.NON_NEGATIVE, "The host cache's (L2) items: its slots of the "
                    + "declared maximal size, or its byte budget (`--host-cache-size` less the staging buffers)."),
            f("memory.host_staging_bytes", "bytes", Bound.NON_NEGATIVE, "The node's buffers for parsed items before "
                    + "their preprocess, part of the same budget."),
            f("memory.device_cache_bytes", "bytes", Bound.NON_NEGATIVE, "The L1s of the devices with memory of their "
                    + "own (cuda, sim), in their memory; 0 where every device reads L2 in place."),
            f("memory.device_staging_bytes", "bytes", Bound.NON_NEGATIVE, "Those devices' buffers for parsed items "
                    + "copied in for preprocess."),
            f("memory.devices_reading_in_place", "devices", Bound.NON_NEGATIVE, "Devices whose memory is the host's "
                    + "(cpu): they read items in L2, pinned while their kernels read them, and copy nothing."),
            f("disk_cache.hits", "items", Bound.NON_NEGATIVE, "Items read from the disk cache (`--disk-cache`)."),
            f("disk_cache.misses", "items", Bound.NON_NEGATIVE, "Items the disk cache did not hold."),
            f("disk_cache.writes", "items", Bound.NON_NEGATIVE, "Items written to the disk cache."),
            f("disk_cache.corrupt", "entries", Bound.NON_NEGATIVE, "Entries that failed their checksum, deleted and "
                    + "loaded again."),
            f("disk_cache.evictions", "entries", Bound.NON_NEGATIVE, "Entries removed to keep within the limit."),
            f("disk_cache.bytes_read", "bytes", Bound.NON_NEGATIVE, "Bytes read from the disk cache."),
            f("disk_cache.bytes_written", "bytes", Bound.NON_NEGATIVE, "Bytes written to the disk cache."),
            f("disk_cache.entries", "entries", Bound.NON_NEGATIVE, "Entries in the cache directory at the end."),
            f("disk_cache.bytes", "bytes", Bound.NON_NEGATIVE, "Bytes in the cache directory at the end."),
            f("disk_cache.limit_bytes", "bytes", Bound.NON_NEGATIVE, "The cache's limit (`--disk-cache-size`)."),
            f("inputs.{scheme}.files", "files", Bound.NON_NEGATIVE, "Input files read, per URI scheme (`file`, `sftp`, "
                    + "`s3`, `http`, `https`)."),
            f("inputs.{scheme}.bytes", "bytes", Bound.NON_NEGATIVE, "Bytes of input read, per scheme."),
            f("inputs.{scheme}.read_seconds", "s", Bound.NON_NEGATIVE, "Time spent in reads, summed over the read "
                    + "streams, per scheme."),
            f("inputs.{scheme}.mb_per_s", "MB/s", Bound.NON_NEGATIVE, "Bytes read ÷ wall time (10^6 bytes), per "
                    + "scheme: the storage's throughput over the run."),
            f("inputs.{scheme}.read_mb_per_s", "MB/s", Bound.NON_NEGATIVE, "Bytes read ÷ `read_seconds`: the "
                    + "throughput of one read stream."),
            f("read_ahead.budget_files", "files", Bound.NON_NEGATIVE, "Files read-ahead may hold at once "
                    + "(`--read-ahead` over the largest file)."),
            f("read_ahead.fetched", "files", Bound.NON_NEGATIVE, "Files read ahead of their load."),
            f("read_ahead.used", "files", Bound.NON_NEGATIVE, "Files read ahead that a load then used."),
            f("read_ahead.discarded", "files", Bound.NON_NEGATIVE, "Files read ahead and given back unused."),
            f("read_ahead.failed", "files", Bound.NON_NEGATIVE, "Reads ahead that failed (the load then reports "
                    + "the error)."),
            f("reduction.top_k", "pairs/item", Bound.AT_LEAST_ONE, "`--top-k`: the best partners kept per item."),
            f("reduction.min_score", "", Bound.NONE, "`--min-score`: the smallest score kept."),
            f("reduction.max_score", "", Bound.NONE, "`--max-score`: the largest score kept."),
            f("reduction.pairs_kept", "pairs", Bound.NON_NEGATIVE, "Pairs the reduction kept and wrote to the "
                    + "outputs (with `--top-k`, at the end of the run)."),
            f("reduction.pairs_received", "pairs", Bound.NON_NEGATIVE, "Results that reached rank 0's reduction: its "
                    + "own pairs and those other nodes sent on (in their band and, with `--top-k`, in their current "
                    + "top K of one of the pair's items); rank 0 held at most `items` × K of them."),
            f("reduction.pairs_dropped_on_nodes", "pairs", Bound.NON_NEGATIVE, "Pairs other nodes computed and "
                    + "dropped, acknowledged to rank 0 in runs without their results."),
            f("cluster.nodes", "nodes", Bound.NON_NEGATIVE, "Cluster runs: the nodes that took part."),
            f("cluster.devices", "devices", Bound.NON_NEGATIVE, "Cluster runs: the devices of all nodes."),
            f("cluster.distributed_cache", "", Bound.NONE, "Cluster runs: whether L3 was on."),
            f("cluster.hops", "hops", Bound.NON_NEGATIVE, "Cluster runs: `--distributed-cache-hops`."),
            f("cluster.l3_requests", "requests", Bound.NON_NEGATIVE, "Cluster runs: requests to other nodes' L2s."),
            f("cluster.l3_hits", "requests", Bound.NON_NEGATIVE, "Cluster runs: L3 requests served by a node."),
            f("cluster.l3_hits_by_hop[]", "requests", Bound.NON_NEGATIVE, "Cluster runs: L3 hits at hop 1, 2, …"),
            f("cluster.l3_first_hop_rate", "", Bound.FRACTION, "Cluster runs: L3 requests served by the first node "
                    + "asked ÷ L3 requests."),
            f("cluster.l3_misses", "requests", Bound.NON_NEGATIVE, "Cluster runs: L3 requests nobody served (the "
                    + "requester loaded the item)."),
            f("cluster.l3_home_loads", "loads", Bound.NON_NEGATIVE, "Cluster runs: items a node loaded at once as "
                    + "their contact, without a request."),
            f("cluster.l3_timeouts", "requests", Bound.NON_NEGATIVE, "Cluster runs: L3 requests that timed out "
                    + "(`--distributed-cache-timeout`)."),
            f("cluster.steals_local", "", Bound.NONE, "Cluster runs: steals between a node's devices, as "
                    + "successes/attempts."),
            f("cluster.steals_remote", "", Bound.NONE, "Cluster runs: steals from other nodes, as "
                    + "successes/attempts."),
            f("cluster.start_window", "items", Bound.NON_NEGATIVE, "Cluster runs: the side of the start windows, or "
                    + "the height of the cluster bands."),
            f("cluster.helps", "", Bound.NONE, "Cluster runs: parts taken over from slower nodes, as "
                    + "successes/attempts."),
            f("cluster.duplicated_pairs", "pairs", Bound.NON_NEGATIVE, "Cluster runs: pairs run again on purpose for "
                    + "slower nodes (end-game duplication)."),
            f("cluster.bytes_sent", "bytes", Bound.NON_NEGATIVE, "Cluster runs: item bytes sent over the data plane."),
            f("cluster.lost_nodes", "nodes", Bound.NON_NEGATIVE, "Cluster runs: nodes lost during the run."),
            f("cluster.lost_ranks[]", "", Bound.NON_NEGATIVE, "Cluster runs: the ranks of the lost nodes."),
            f("cluster.recomputed_pairs", "pairs", Bound.NON_NEGATIVE, "Cluster runs: pairs handed out again by "
                    + "recovery rounds after losses and stalls."),
            f("cluster.duplicate_results", "pairs", Bound.NON_NEGATIVE, "Cluster runs: results rank 0 dropped because "
                    + "the pair was already in."),
            f("cluster.result_bytes_received", "bytes", Bound.NON_NEGATIVE, "Cluster runs: bytes of result batches "
                    + "rank 0 received from the other ranks (with `--shared-output`, acknowledged pairs and part "
                    + "lengths rather than results)."),
            f("step_seconds.{step}", "s", Bound.NON_NEGATIVE, "Mean time of one step, per step (`read`, `parse`, "
                    + "`h2d`, `preprocess`, `d2h_item`, `compare`, `d2h_result`, `postprocess`, `remote_fetch`); a "
                    + "cluster summary's are rank 0's."),
            f("busy_seconds.{kind}", "s", Bound.NON_NEGATIVE, "Time the threads of a kind ran tasks, summed over its "
                    + "threads (`io`, `cpu`, `kernel`, `h2d`, `d2h`); a cluster summary's are rank 0's."),
            f("device_busy_seconds[]", "s", Bound.NON_NEGATIVE, "Busy time of each device's kernel thread, to judge "
                    + "balance; a cluster summary's are rank 0's."),
            f("nodes[].rank", "", Bound.NON_NEGATIVE, NODE + "its rank."),
            f("nodes[].devices", "devices", Bound.NON_NEGATIVE, NODE + "its devices."),
            f("nodes[].pairs", "pairs", Bound.NON_NEGATIVE, NODE + "the pairs it computed."),
            f("nodes[].errors", "pairs", Bound.NON_NEGATIVE, NODE + "its failed pairs."),
            f("nodes[].items_needed", "items", Bound.NON_NEGATIVE, NODE + "m, the distinct items its pairs used."),
            f("nodes[].loads", "loads", Bound.NON_NEGATIVE, NODE + "its full loads."),
            f("nodes[].R", "fills/item", Bound.AT_LEAST_R_LOWER_BOUND, NODE + "its R (fills are its L2 misses)."),
            f("nodes[].R_lower_bound", "fills/item", Bound.AT_LEAST_ONE, NODE + "the bound for its share and caches."),
            f("nodes[].t_min_seconds", "s", Bound.NON_NEGATIVE, NODE + "T_min of its share."),
            f("nodes[].device_seconds", "s", Bound.NON_NEGATIVE, NODE + "its devices × the time it held them."),
            f("nodes[].system_efficiency", "", Bound.FRACTION, NODE + "its T_min ÷ its device-seconds."),
            f("nodes[].cache.{level}.{counter}", "", Bound.NON_NEGATIVE, NODE + "its cache counters, as "
                    + "`cache.{level}.*` above."),
            f("nodes[].cache.{level}.hit_rate", "", Bound.FRACTION, NODE + "its hit rate per cache level."),
            f("nodes[].l3.requests", "requests", Bound.NON_NEGATIVE, NODE + "its L3 requests."),
            f("nodes[].l3.hits", "requests", Bound.NON_NEGATIVE, NODE + "its L3 requests served by a node."),
            f("nodes[].l3.hits_by_hop[]", "requests", Bound.NON_NEGATIVE, NODE + "its L3 hits at hop 1, 2, …"),
            f("nodes[].l3.misses", "requests", Bound.NON_NEGATIVE, NODE + "its L3 requests nobody served."),
            f("nodes[].l3.timeouts", "requests", Bound.NON_NEGATIVE, NODE + "its L3 requests that timed out."),
            f("nodes[].l3.served", "items", Bound.NON_NEGATIVE, NODE + "items it sent to other nodes."),
            f("nodes[].l3.home_loads", "loads", Bound.NON_NEGATIVE, NODE + "items it loaded at once as their "
                    + "contact."),
            f("nodes[].bytes_sent", "bytes", Bound.NON_NEGATIVE, NODE + "item bytes it sent over the data plane."),
            f("nodes[].bytes_received", "bytes", Bound.NON_NEGATIVE, NODE + "item bytes it received."),
            f("nodes[].steals.{counter}", "", Bound.NON_NEGATIVE, NODE + "its steal counters: `local_attempts`, "
                    + "`local_successes`, `remote_attempts`, `remote_successes`, `regions_lent`, `help_attempts`, "
                    + "`helps`, `duplicate_attempts`, `duplicated_pairs`."),
            f("nodes[].preprocess_count", "kernels", Bound.NON_NEGATIVE, NODE + "preprocess kernels it ran."),
            f("nodes[].preprocess_seconds", "s", Bound.NON_NEGATIVE, NODE + "their total time."),
            f("nodes[].compare_count", "kernels", Bound.NON_NEGATIVE, NODE + "compare kernels it ran."),
            f("nodes[].compare_seconds", "s", Bound.NON_NEGATIVE, NODE + "their total time."),
            f("nodes[].wall_seconds", "s", Bound.NON_NEGATIVE, NODE + "its own wall time."),
            f("nodes[].inputs.{scheme}.{counter}", "", Bound.NON_NEGATIVE, NODE + "its input reads per scheme "
                    + "(`files`, `bytes`, `read_seconds`)."),
            f("nodes[].read_ahead.{counter}", "files", Bound.NON_NEGATIVE, NODE + "its read-ahead, as `read_ahead.*`."),
            f("nodes[].disk_cache.{counter}", "", Bound.NON_NEGATIVE, NODE + "its disk cache, as `disk_cache.*`."),
            f("nodes[].failures[]", "", Bound.NONE, NODE + "the items it could not load, with the reason."),
            f("failures[].item", "", Bound.NON_NEGATIVE, "An item that could not be loaded: its index."),
            f("failures[].key", "", Bound.NONE, "An item that could not be loaded: its label."),
            f("failures[].error", "", Bound.NONE, "An item that could not be loaded: the reason."));

    private SummaryFields() {
    }

    private static Field f(String path, String unit, Bound bound, String definition) {
        return new Field(path, unit, bound, definition);
    }

    /**
     * The field a concrete path belongs to, e.g. {@code nodes[].cache.host.hit_rate}; array positions written as
     * {@code []}. The most specific field wins: the one with the fewest {@code {name}} parts.
     *
     * @param concretePath a path as the JSON has it, keys joined by {@code .}, list elements as {@code []}
     * @return the field, or empty when the path is not defined here
     */
    public static Optional<Field> of(String concretePath) {
        Field best = null;
        for (Field f : ALL) {
            if (f.pattern().matcher(concretePath).matches() && (best == null || variables(f) < variables(best))) {
                best = f;
            }
        }
        return Optional.ofNullable(best);
    }

    private static long variables(Field f) {
        return f.path().chars().filter(c -> c == '{').count();
    }
}
