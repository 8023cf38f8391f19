package io.rocket.runtime.status;

import com.fasterxml.jackson.databind.JsonNode;
import io.rocket.cluster.NodeStatus;
import io.rocket.cluster.NodeStatus.Count;
import io.rocket.core.exec.ThreadKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The status as Prometheus metrics, in the text exposition format (version 0.0.4): the job's figures on rank 0,
 * and each node's labelled with its {@code rank} and {@code host}. Names follow Prometheus' conventions: a
 * {@code rocket_} prefix, base units (seconds, bytes), counters ending in {@code _total}. Every node serving an
 * endpoint shows its own figures, so a site's Prometheus can scrape each node of a SLURM job, or rank 0 alone.
 */
public final class PrometheusText {
    /** The content type of the format. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /**
     * A metric that is not a node counter.
     *
     * @param name    its name
     * @param type    {@code counter} or {@code gauge}
     * @param help    its help text
     * @param labels  its labels besides {@code rank} and {@code host}, empty for none
     */
    public record Metric(String name, String type, String help, String labels) {
    }

    /** The job's metrics (rank 0 only), with the status document field each is read from. */
    private static final List<Metric> JOB = List.of(
            new Metric("rocket_job_pairs_done_total", "counter", "Pairs finished, each once.", ""),
            new Metric("rocket_job_pairs", "gauge", "Pairs the job computes in all.", ""),
            new Metric("rocket_job_elapsed_seconds", "gauge", "Seconds since the job's status started.", ""),
            new Metric("rocket_job_pairs_per_second", "gauge", "Pairs finished per second, recently.", ""),
            new Metric("rocket_job_eta_seconds", "gauge",
                    "Seconds the job still needs at the recent rate (absent while unknown).", ""),
            new Metric("rocket_job_lost_nodes", "gauge", "Nodes lost so far.", ""),
            new Metric("rocket_job_recomputed_pairs_total", "counter", "Pairs computed again after a loss.", ""),
            new Metric("rocket_job_running", "gauge", "1 while the job runs, 0 once it ended.", ""));
    private static final List<String> JOB_FIELDS = List.of("pairs_done", "pairs_total", "elapsed_seconds",
            "pairs_per_second_now", "eta_seconds", "lost_ranks", "recomputed_pairs", "job");

    /** The node metrics that are not {@link Count}s. */
    private static final List<Metric> NODE = List.of(
            new Metric("rocket_node_up", "gauge", "1 while the node is in the run, 0 once it is lost.", ""),
            new Metric("rocket_node_pairs_per_second", "gauge", "Pairs the node finished per second, recently.", ""),
            new Metric("rocket_node_thread_busy_seconds_total", "counter",
                    "Seconds a thread of a kind ran tasks, per thread (the kind's busy time divided by its threads): "
                            + "its rate is the kind's busy fraction.", "kind"),
            new Metric("rocket_node_gpu_busy_seconds_total", "counter",
                    "Seconds the node's GPUs' kernel threads were busy, summed over its GPUs.", ""));

    private PrometheusText() {
    }

    /**
     * Every metric the text may hold, for the reference: the job's, then the node's.
     *
     * @return the metrics in the order they are written
     */
    public static List<Metric> metrics() {
        List<Metric> all = new ArrayList<>(JOB);
        for (Count c : Count.values()) {
            all.add(new Metric(c.metric(), c.counter() ? "counter" : "gauge", help(c), ""));
        }
        all.addAll(NODE);
        return all;
    }

    /**
     * The metrics text.
     *
     * @param job   the job's status document (rank 0), or null for a node's own figures only
     * @param nodes the nodes' figures
     * @return the text, one sample a line
     */
    public static String render(JsonNode job, List<NodeStatus> nodes) {
        StringBuilder b = new StringBuilder(4096);
        if (job != null) {
            for (int k = 0; k < JOB.size(); k++) {
                double value = jobValue(job, JOB_FIELDS.get(k));
                if (!Double.isNaN(value)) {
                    header(b, JOB.get(k));
                    b.append(JOB.get(k).name()).append(' ').append(number(value)).append('\n');
                }
            }
        }
        for (Count c : Count.values()) {
            header(b, new Metric(c.metric(), c.counter() ? "counter" : "gauge", help(c), ""));
            for (NodeStatus n : nodes) {
                sample(b, c.metric(), n, null, n.count(c));
            }
        }
        nodeMetric(b, NODE.get(0), nodes, n -> n.state().equals("lost") ? 0 : 1);
        nodeMetric(b, NODE.get(1), nodes, NodeStatus::pairsPerSecond);
        header(b, NODE.get(2));
        for (NodeStatus n : nodes) {
            for (ThreadKind k : ThreadKind.values()) {
                sample(b, NODE.get(2).name(), n, "kind=\"" + k.id() + "\"", n.busy(k));
            }
        }
        List<NodeStatus> withGpus = nodes.stream().filter(n -> n.gpus() > 0).toList();
        if (!withGpus.isEmpty()) {
            nodeMetric(b, NODE.get(3), withGpus, NodeStatus::gpuBusySeconds);
        }
        return b.toString();
    }

    private static double jobValue(JsonNode job, String field) {
        JsonNode v = job.get(field);
        return switch (field) {
            case "lost_ranks" -> v.size();
            case "job" -> v.path("state").asText().equals("running") ? 1 : 0;
            default -> v == null || v.isNull() ? Double.NaN : v.asDouble();
        };
    }

    private static void nodeMetric(StringBuilder b, Metric m, List<NodeStatus> nodes, ToDoubleFunction<NodeStatus> f) {
        header(b, m);
        for (NodeStatus n : nodes) {
            sample(b, m.name(), n, null, f.applyAsDouble(n));
        }
    }

    private static String help(Count c) {
        String m = c.meaning();
        return Character.toUpperCase(m.charAt(0)) + m.substring(1) + ".";
    }

    private static void header(StringBuilder b, Metric m) {
        b.append("# HELP ").append(m.name()).append(' ').append(m.help().replace("\\", "\\\\").replace("\n", "\\n"))
                .append('\n').append("# TYPE ").append(m.name()).append(' ').append(m.type()).append('\n');
    }

    private static void sample(StringBuilder b, String name, NodeStatus n, String extra, double value) {
        b.append(name).append("{rank=\"").append(n.rank()).append("\",host=\"").append(label(n.host())).append('"');
        if (extra != null) {
            b.append(',').append(extra);
        }
        b.append("} ").append(number(value)).append('\n');
    }

    /** A label value: backslash, double quote and line feed escaped, as the format says. */
    static String label(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, "%.6g", v);
    }
}
