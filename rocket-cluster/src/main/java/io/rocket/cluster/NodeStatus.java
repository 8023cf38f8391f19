package io.rocket.cluster;

import io.rocket.core.exec.ThreadKind;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One node's live figures while a run goes on, for the status endpoint: its counters so far ({@link Count}), its
 * rate, the busy time of its threads by kind, and its GPUs' busy time. Each node samples its own about once a second
 * and sends them to rank 0 (a STATUS message) only when they changed; rank 0 shows the latest of each. The counters
 * are totals since the node started, so a lost message costs nothing but freshness. Busy times are per thread (a
 * kind's busy time ÷ its threads), so none exceeds {@code seconds}.
 *
 * @param rank           the node's rank
 * @param host           the node's host name
 * @param state          {@code running} or {@code done} as the node says; rank 0 shows a lost node as {@code lost}
 * @param seconds        seconds since the node's run started
 * @param pairsPerSecond pairs the node finished per second over its last sampling interval
 * @param counts         its counters, indexed by {@link Count#ordinal()}
 * @param busySeconds    busy seconds per thread of each kind (the kind's summed busy time ÷ its threads), by
 *                       {@link ThreadKind#ordinal()}
 * @param gpus           the node's CUDA devices (0 without)
 * @param gpuBusySeconds busy seconds of those devices' kernel threads, summed
 */
public record NodeStatus(int rank, String host, String state, double seconds, double pairsPerSecond, long[] counts,
                         double[] busySeconds, int gpus, double gpuBusySeconds) {

    /** The longest host name or state a message may carry (what a STATUS message holds is small). */
    private static final int MAX_TEXT_BYTES = 256;

    /**
     * A node's counters: each with its name in the status document and its Prometheus metric (a counter ends in
     * {@code _total}, bytes are bytes), and what it counts. The ordinal is the position on the wire: only append.
     */
    public enum Count {
        PAIRS("pairs_done", "rocket_node_pairs_total", true, "pairs this node computed (failed and recomputed ones included)"),
        PAIR_ERRORS("pair_errors", "rocket_node_pair_errors_total", true, "pairs that ended with an error on this node"),
        BAD_ITEMS("bad_items", "rocket_node_bad_items_total", true, "items this node could not load (a bad input)"),
        L1_HITS("l1_hits", "rocket_node_l1_hits_total", true, "device cache (L1) requests served from the cache"),
        L1_MISSES("l1_misses", "rocket_node_l1_misses_total", true, "device cache (L1) requests that had to load the item"),
        L2_HITS("l2_hits", "rocket_node_l2_hits_total", true, "host cache (L2) requests served from the cache"),
        L2_MISSES("l2_misses", "rocket_node_l2_misses_total", true, "host cache (L2) requests that had to load the item"),
        L3_REQUESTS("l3_requests", "rocket_node_l3_requests_total", true, "items asked of other nodes (L3)"),
        L3_HITS("l3_hits", "rocket_node_l3_hits_total", true, "L3 requests another node answered with the item"),
        L3_MISSES("l3_misses", "rocket_node_l3_misses_total", true, "L3 requests no node could answer (timeouts included)"),
        L3_TIMEOUTS("l3_timeouts", "rocket_node_l3_timeouts_total", true, "L3 requests whose answer did not come in time"),
        BYTES_SENT("bytes_sent", "rocket_node_data_sent_bytes_total", true, "item bytes this node sent to others"),
        BYTES_RECEIVED("bytes_received", "rocket_node_data_received_bytes_total", true, "item bytes this node received"),
        LOCAL_STEALS("local_steals", "rocket_node_local_steals_total", true, "regions one of its workers took from another"),
        REMOTE_STEALS("remote_steals", "rocket_node_remote_steals_total", true, "regions it took from other nodes"),
        DIRECT_MEMORY_USED_BYTES("direct_memory_used_bytes", "rocket_node_direct_memory_used_bytes", false,
                "the JVM's off-heap (direct) buffers in use: the host cache's slots, staging buffers and any other"),
        DIRECT_MEMORY_MAX_BYTES("direct_memory_max_bytes", "rocket_node_direct_memory_max_bytes", false,
                "the most off-heap (direct) memory the JVM may use (-XX:MaxDirectMemorySize)");

        private final String field;
        private final String metric;
        private final boolean counter;
        private final String meaning;

        Count(String field, String metric, boolean counter, String meaning) {
            this.field = field;
            this.metric = metric;
            this.counter = counter;
            this.meaning = meaning;
        }

        /** @return its name in the status document */
        public String field() {
            return field;
        }

        /** @return its Prometheus metric name */
        public String metric() {
            return metric;
        }

        /** @return true for a counter (only grows), false for a gauge */
        public boolean counter() {
            return counter;
        }

        /** @return what it counts, in a few words */
        public String meaning() {
            return meaning;
        }
    }

    /**
     * @param rank the node's rank, see the record's description for the others
     */
    public NodeStatus {
        if (counts.length != Count.values().length || busySeconds.length != ThreadKind.values().length) {
            throw new IllegalArgumentException("a status has " + Count.values().length + " counts and "
                    + ThreadKind.values().length + " busy times");
        }
    }

    /**
     * A node with no figures yet (or none ever: lost before it reported).
     *
     * @param rank  the node's rank
     * @param state its state
     * @return a status with every figure 0 and no host
     */
    public static NodeStatus empty(int rank, String state) {
        return new NodeStatus(rank, "", state, 0, 0, new long[Count.values().length],
                new double[ThreadKind.values().length], 0, 0);
    }

    /**
     * One counter.
     *
     * @param count which
     * @return its value
     */
    public long count(Count count) {
        return counts[count.ordinal()];
    }

    /**
     * The busy time of one kind of thread.
     *
     * @param kind the kind of thread
     * @return seconds per thread of the kind
     */
    public double busy(ThreadKind kind) {
        return busySeconds[kind.ordinal()];
    }

    /**
     * This status with another state (rank 0 marks lost nodes).
     *
     * @param value the new state
     * @return a copy in that state
     */
    public NodeStatus withState(String value) {
        return new NodeStatus(rank, host, value, seconds, pairsPerSecond, counts, busySeconds, gpus, gpuBusySeconds);
    }

    /**
     * Whether {@code other} tells anything new: another state or other counters (time alone is no news).
     *
     * @param other the status sent last, or null
     * @return true when it differs in state or figures
     */
    public boolean changedSince(NodeStatus other) {
        return other == null || !state.equals(other.state) || !Arrays.equals(counts, other.counts)
                || !Arrays.equals(busySeconds, other.busySeconds);
    }

    void write(DataOutputStream out) throws IOException {
        out.writeInt(rank);
        writeText(out, host);
        writeText(out, state);
        out.writeDouble(seconds);
        out.writeDouble(pairsPerSecond);
        out.writeInt(counts.length);
        for (long c : counts) {
            out.writeLong(c);
        }
        out.writeInt(busySeconds.length);
        for (double b : busySeconds) {
            out.writeDouble(b);
        }
        out.writeInt(gpus);
        out.writeDouble(gpuBusySeconds);
    }

    /** Reads what {@link #write} wrote; a node of a later version may send more counters, which are skipped. */
    static NodeStatus read(DataInputStream in) throws IOException {
        int rank = in.readInt();
        String host = readText(in);
        String state = readText(in);
        double seconds = in.readDouble();
        double rate = in.readDouble();
        long[] counts = new long[Count.values().length];
        int sent = Wire.count(in, Long.BYTES);
        for (int k = 0; k < sent; k++) {
            long value = in.readLong();
            if (k < counts.length) {
                counts[k] = value;
            }
        }
        double[] busy = new double[ThreadKind.values().length];
        sent = Wire.count(in, Double.BYTES);
        for (int k = 0; k < sent; k++) {
            double value = in.readDouble();
            if (k < busy.length) {
                busy[k] = value;
            }
        }
        return new NodeStatus(rank, host, state, seconds, rate, counts, busy, in.readInt(), in.readDouble());
    }

    private static void writeText(DataOutputStream out, String s) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        Wire.writeBytes(out, bytes.length <= MAX_TEXT_BYTES ? bytes : Arrays.copyOf(bytes, MAX_TEXT_BYTES));
    }

    private static String readText(DataInputStream in) throws IOException {
        byte[] bytes = Wire.readBytes(in);
        if (bytes.length > MAX_TEXT_BYTES) {
            throw new IOException("a status text of " + bytes.length + " bytes");
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
