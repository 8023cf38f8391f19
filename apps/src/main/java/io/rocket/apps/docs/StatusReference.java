package io.rocket.apps.docs;

import io.rocket.cluster.NodeStatus;
import io.rocket.runtime.status.PrometheusText;
import io.rocket.runtime.status.StatusFields;

/**
 * The reference page of the live status ({@code docs/reference/status.md}): the status document's fields, each
 * node's counters and the Prometheus metrics, generated from the lists the code writes them from.
 */
final class StatusReference {
    private StatusReference() {
    }

    static String page() {
        StringBuilder md = new StringBuilder(ReferenceDocs.HEADER);
        md.append("# Live status reference\n\n");
        md.append("What a run's status endpoint (`--status-port`) serves: `/status`, the status document (JSON; also "
                + "each line of an `--event-log` and the final `status.json` of a `--status-dir`), and `/metrics`, "
                + "the same figures for Prometheus. How to use them: "
                + "[Watching a run](../user-guide/watching-a-run.md).\n\n");
        md.append("## The status document\n\n| field | unit | meaning |\n|---|---|---|\n");
        for (StatusFields f : StatusFields.values()) {
            md.append("| `").append(f.field()).append("` | ").append(Markdown.cell(f.unit())).append(" | ")
                    .append(Markdown.cell(f.meaning())).append(" |\n");
        }
        md.append("\nEach node's counters, totals since the node started (`nodes[].…`):\n\n"
                + "| field | Prometheus metric | meaning |\n|---|---|---|\n");
        for (NodeStatus.Count c : NodeStatus.Count.values()) {
            md.append("| `").append(c.field()).append("` | `").append(c.metric()).append("` | ")
                    .append(Markdown.cell(c.meaning())).append(" |\n");
        }
        md.append("\n## Prometheus metrics\n\nText format 0.0.4. The `rocket_job_` metrics come from rank 0 only; "
                + "every `rocket_node_` sample is labelled with the node's `rank` and `host`.\n\n"
                + "| metric | type | labels | meaning |\n|---|---|---|---|\n");
        for (PrometheusText.Metric m : PrometheusText.metrics()) {
            md.append("| `").append(m.name()).append("` | ").append(m.type()).append(" | ")
                    .append(m.name().startsWith("rocket_node_") ? "`rank`, `host`" + (m.labels().isEmpty() ? ""
                            : ", `" + m.labels() + "`") : "").append(" | ").append(Markdown.cell(m.help()))
                    .append(" |\n");
        }
        return md.toString();
    }
}
