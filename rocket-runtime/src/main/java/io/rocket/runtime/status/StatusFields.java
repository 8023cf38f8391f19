package io.rocket.runtime.status;

/**
 * The fields of the status document ({@code /status}, event log lines, the final {@value StatusOptions#FINAL_FILE})
 * that {@link JobStatus} writes, with what each means: the reference page is generated from this list and the
 * node counters' ({@link io.rocket.cluster.NodeStatus.Count}), so it cannot drift from the code.
 */
public enum StatusFields {
    /** {@code job.app}. */
    JOB_APP("job.app", "", "the application's name"),
    /** {@code job.state}. */
    JOB_STATE("job.state", "", "`running`, `done` (every pair in) or `failed` (the run stopped with an error)"),
    /** {@code job.started}. */
    JOB_STARTED("job.started", "ISO-8601", "when rank 0 started serving the status"),
    /** {@code job.nodes}. */
    JOB_NODES("job.nodes", "nodes", "nodes in the run"),
    /** {@code pair_space.items}. */
    SPACE_ITEMS("pair_space.items", "items", "items of the run"),
    /** {@code pair_space.description}. */
    SPACE_DESCRIPTION("pair_space.description", "", "which pairs are computed, in words"),
    /** {@code pair_space.pairs}. */
    SPACE_PAIRS("pair_space.pairs", "pairs", "pairs of the space: what the run computes in all"),
    /** {@code elapsed_seconds}. */
    ELAPSED("elapsed_seconds", "s", "time since rank 0 started serving the status; stops at the end"),
    /** {@code pairs_done}. */
    PAIRS_DONE("pairs_done", "pairs", "pairs finished, each once (pairs resumed from a journal included)"),
    /** {@code pairs_total}. */
    PAIRS_TOTAL("pairs_total", "pairs", "the same as `pair_space.pairs`"),
    /** {@code pairs_per_second_now}. */
    RATE_NOW("pairs_per_second_now", "pairs/s", "pairs finished per second over the last "
            + (int) JobStatus.RATE_WINDOW_SECONDS + " s"),
    /** {@code pairs_per_second_overall}. */
    RATE_OVERALL("pairs_per_second_overall", "pairs/s", "`pairs_done` ÷ `elapsed_seconds`"),
    /** {@code eta_seconds}. */
    ETA("eta_seconds", "s", "pairs left ÷ `pairs_per_second_now`; null while that is 0 or after a failure, 0 when done"),
    /** {@code nodes}. */
    NODES("nodes", "", "one object per rank, in rank order (fields `nodes[].…` below)"),
    /** {@code lost_ranks}. */
    LOST("lost_ranks", "ranks", "ranks lost so far; their unfinished work is done again by the others"),
    /** {@code recomputed_pairs}. */
    RECOMPUTED("recomputed_pairs", "pairs", "pairs computed again after a loss"),
    /** {@code bad_item_loads}. */
    BAD_ITEM_LOADS("bad_item_loads", "items", "the nodes' `bad_items` summed: loads that failed, so an item that "
            + "failed on two nodes counts twice"),
    /** {@code pair_errors}. */
    PAIR_ERRORS("pair_errors", "pairs", "the nodes' `pair_errors` summed"),
    /** {@code history}. */
    HISTORY("history", "", "`/status` only: points of the run so far (at most " + JobStatus.HISTORY + ", spread over "
            + "the whole run), each with `seconds`, `pairs_done` and `rank_pairs` (each rank's `pairs_done`)"),
    /** {@code nodes[].rank}. */
    NODE_RANK("nodes[].rank", "", "the node's rank"),
    /** {@code nodes[].host}. */
    NODE_HOST("nodes[].host", "", "its host name; empty until it first reported"),
    /** {@code nodes[].state}. */
    NODE_STATE("nodes[].state", "", "`starting` (not heard from yet), `running`, `done` or `lost`"),
    /** {@code nodes[].pairs_per_second}. */
    NODE_RATE("nodes[].pairs_per_second", "pairs/s", "pairs it finished per second over its last second or so"),
    /** {@code nodes[].l1_hit_rate, l2_hit_rate, l3_hit_rate}. */
    NODE_HIT_RATES("nodes[].l1_hit_rate, l2_hit_rate, l3_hit_rate", "0–1",
            "hits ÷ requests of its device cache, host cache and distributed cache; 0 before any request"),
    /** {@code nodes[].busy_fraction}. */
    NODE_BUSY("nodes[].busy_fraction", "0–1", "per kind of thread (`io`, `cpu`, `kernel`, `h2d`, `d2h`, `worker`), "
            + "the time its threads ran tasks ÷ (its threads × `seconds`): 1 when every thread of the kind was busy "
            + "all the time"),
    /** {@code nodes[].seconds}. */
    NODE_SECONDS("nodes[].seconds", "s", "time since the node's run started, when it last reported"),
    /** {@code nodes[].gpus}. */
    NODE_GPUS("nodes[].gpus", "GPUs", "its CUDA devices"),
    /** {@code nodes[].gpu_busy_fraction}. */
    NODE_GPU_BUSY("nodes[].gpu_busy_fraction", "0–1",
            "its GPUs' kernel busy time ÷ (GPUs × `seconds`); null without GPUs");

    private final String field;
    private final String unit;
    private final String meaning;

    StatusFields(String field, String unit, String meaning) {
        this.field = field;
        this.unit = unit;
        this.meaning = meaning;
    }

    /** @return the field's path in the document */
    public String field() {
        return field;
    }

    /** @return its unit, empty for none */
    public String unit() {
        return unit;
    }

    /** @return what it means */
    public String meaning() {
        return meaning;
    }
}
