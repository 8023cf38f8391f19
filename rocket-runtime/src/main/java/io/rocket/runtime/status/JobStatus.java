package io.rocket.runtime.status;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocket.cluster.NodeStatus;
import io.rocket.cluster.NodeStatus.Count;
import io.rocket.core.exec.ThreadKind;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Rank 0's view of the whole job while it runs: what it is, how far it got, how fast it goes now and overall, when
 * it will end, and every node's latest figures; the status document ({@code /status}, an event log line, the final
 * {@value StatusOptions#FINAL_FILE}) is made here, its fields described by {@link StatusFields}. A bounded history
 * of the job's progress (one point a sample, thinned by half when full, so it always spans the whole run) lets a
 * page opened late draw the run from its start.
 *
 * <p>Thread-safe: the sampler calls {@link #tick}, the endpoint's thread {@link #document}.
 */
public final class JobStatus {
    /** Most history points kept; beyond, every other one goes. */
    static final int HISTORY = 512;
    /** The rate "now" is over at least this many seconds of history (or all of it, early in the run). */
    static final double RATE_WINDOW_SECONDS = 10;
    /** Makes the document's nodes: a run builds its job's view whether or not it shows it, and a mapper is slow to make. */
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /**
     * What the job is.
     *
     * @param app        the application's name
     * @param items      the items
     * @param pairSpace  which pairs, in words
     * @param totalPairs the pairs the job computes in all
     * @param nodes      its nodes
     */
    public record Job(String app, int items, String pairSpace, long totalPairs, int nodes) {
    }

    /**
     * Where rank 0 reads the job's figures.
     *
     * @param done       pairs done so far, the job's (each pair once; pairs resumed from a journal included)
     * @param nodes      every node's latest figures, one per rank
     * @param lost       ranks lost so far
     * @param recomputed pairs computed again after a loss
     */
    public record Sources(LongSupplier done, Supplier<List<NodeStatus>> nodes, Supplier<Set<Integer>> lost,
                          LongSupplier recomputed) {
    }

    private record Point(double seconds, long done, long[] rankPairs) {
    }

    private final Job job;
    private final Sources sources;
    private final Instant started = Instant.now();
    private final long startNanos = System.nanoTime();
    private final List<Point> history = new ArrayList<>();
    private String state = "running";
    private Double endSeconds;

    /**
     * @param job     what the job is
     * @param sources where its figures come from
     */
    public JobStatus(Job job, Sources sources) {
        this.job = job;
        this.sources = sources;
    }

    /** Takes a history point: the job's pairs done and each rank's now. */
    public synchronized void tick() {
        List<NodeStatus> nodes = sources.nodes().get();
        long[] ranks = new long[nodes.size()];
        for (int k = 0; k < ranks.length; k++) {
            ranks[k] = nodes.get(k).count(Count.PAIRS);
        }
        history.add(new Point(seconds(), sources.done().getAsLong(), ranks));
        if (history.size() > HISTORY) {
            for (int k = history.size() - 2; k > 0; k -= 2) {
                history.remove(k); // every other point, keeping the first and the last
            }
        }
    }

    /**
     * The job ended: its state from now on, and its elapsed time stops.
     *
     * @param value {@code done} or {@code failed}
     */
    public synchronized void finish(String value) {
        state = value;
        endSeconds = (System.nanoTime() - startNanos) / 1e9;
    }

    /** @return every node's latest figures, one per rank */
    public List<NodeStatus> nodes() {
        return sources.nodes().get();
    }

    /** @return {@code running}, {@code done} or {@code failed} */
    public synchronized String state() {
        return state;
    }

    private double seconds() {
        return endSeconds != null ? endSeconds : (System.nanoTime() - startNanos) / 1e9;
    }

    /**
     * The status document (see {@link StatusFields}).
     *
     * @param withHistory whether to include the history (the endpoint does, an event log line does not: its lines
     *                    are the history)
     * @return the document
     */
    public synchronized ObjectNode document(boolean withHistory) {
        ObjectNode d = JSON.objectNode();
        double seconds = seconds();
        long done = sources.done().getAsLong();
        ObjectNode j = d.putObject("job");
        j.put("app", job.app());
        j.put("state", state);
        j.put("started", started.toString());
        j.put("nodes", job.nodes());
        ObjectNode space = d.putObject("pair_space");
        space.put("items", job.items());
        space.put("description", job.pairSpace());
        space.put("pairs", job.totalPairs());
        d.put("elapsed_seconds", seconds);
        d.put("pairs_done", done);
        d.put("pairs_total", job.totalPairs());
        double overall = seconds > 0 ? done / seconds : 0;
        double now = rateNow(done, seconds);
        d.put("pairs_per_second_now", now);
        d.put("pairs_per_second_overall", overall);
        long left = job.totalPairs() - done;
        if (left <= 0) {
            d.put("eta_seconds", 0.0);
        } else if (now > 0 && state.equals("running")) {
            d.put("eta_seconds", left / now);
        } else {
            d.putNull("eta_seconds");
        }
        List<NodeStatus> nodes = sources.nodes().get();
        ArrayNode array = d.putArray("nodes");
        long bad = 0;
        long errors = 0;
        for (NodeStatus n : nodes) {
            array.add(node(n));
            bad += n.count(Count.BAD_ITEMS);
            errors += n.count(Count.PAIR_ERRORS);
        }
        ArrayNode lost = d.putArray("lost_ranks");
        sources.lost().get().stream().sorted().forEach(lost::add);
        d.put("recomputed_pairs", sources.recomputed().getAsLong());
        d.put("bad_item_loads", bad);
        d.put("pair_errors", errors);
        if (withHistory) {
            ArrayNode h = d.putArray("history");
            for (Point p : history) {
                ObjectNode point = h.addObject();
                point.put("seconds", p.seconds());
                point.put("pairs_done", p.done());
                ArrayNode ranks = point.putArray("rank_pairs");
                for (long r : p.rankPairs()) {
                    ranks.add(r);
                }
            }
        }
        return d;
    }

    /** Pairs per second over the last {@link #RATE_WINDOW_SECONDS} of history (all of it when shorter). */
    private double rateNow(long done, double seconds) {
        Point from = null;
        for (int k = history.size() - 1; k >= 0; k--) {
            from = history.get(k);
            if (seconds - from.seconds() >= RATE_WINDOW_SECONDS) {
                break;
            }
        }
        if (from == null || seconds - from.seconds() <= 0) {
            return seconds > 0 ? done / seconds : 0;
        }
        return (done - from.done()) / (seconds - from.seconds());
    }

    /** One node's part of the document. */
    static ObjectNode node(NodeStatus n) {
        ObjectNode o = JSON.objectNode();
        o.put("rank", n.rank());
        o.put("host", n.host());
        o.put("state", n.state());
        o.put("pairs_per_second", n.pairsPerSecond());
        for (Count c : Count.values()) {
            o.put(c.field(), n.count(c));
        }
        o.put("l1_hit_rate", rate(n.count(Count.L1_HITS), n.count(Count.L1_MISSES)));
        o.put("l2_hit_rate", rate(n.count(Count.L2_HITS), n.count(Count.L2_MISSES)));
        o.put("l3_hit_rate", rate(n.count(Count.L3_HITS), n.count(Count.L3_REQUESTS) - n.count(Count.L3_HITS)));
        ObjectNode busy = o.putObject("busy_fraction");
        for (ThreadKind k : ThreadKind.values()) {
            busy.put(k.id(), n.seconds() > 0 ? Math.min(1, n.busy(k) / n.seconds()) : 0);
        }
        o.put("seconds", n.seconds());
        o.put("gpus", n.gpus());
        if (n.gpus() > 0 && n.seconds() > 0) {
            o.put("gpu_busy_fraction", Math.min(1, n.gpuBusySeconds() / (n.gpus() * n.seconds())));
        } else {
            o.putNull("gpu_busy_fraction");
        }
        return o;
    }

    private static double rate(long hits, long misses) {
        return hits + misses == 0 ? 0 : (double) hits / (hits + misses);
    }
}
