package io.rocket.apps.docs;

import io.rocket.core.summary.SummaryFields;
import io.rocket.core.summary.SummaryFields.Field;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The run summary's reference page, from {@link SummaryFields}: one table per top-level section of the JSON. */
final class SummaryReference {
    private static final Map<String, String> SECTIONS = new LinkedHashMap<>();

    static {
        SECTIONS.put("", "Counts, time and the performance model");
        SECTIONS.put("devices", "`devices`: the node's devices");
        SECTIONS.put("cache", "`cache`: the cache levels");
        SECTIONS.put("disk_cache", "`disk_cache`: the disk cache (with `--disk-cache`)");
        SECTIONS.put("inputs", "`inputs`: input files read, per scheme");
        SECTIONS.put("read_ahead", "`read_ahead`: reading ahead in schedule order");
        SECTIONS.put("cluster", "`cluster`: a cluster run's totals (rank 0)");
        SECTIONS.put("step_seconds", "`step_seconds`, `busy_seconds`, `device_busy_seconds`: where the time went");
        SECTIONS.put("nodes", "`nodes`: each node of a cluster run, for its own share");
        SECTIONS.put("failures", "`failures`: items that could not be loaded");
    }

    private SummaryReference() {
    }

    static String page() {
        StringBuilder md = new StringBuilder(ReferenceDocs.HEADER);
        md.append("# Run summary reference\n\n");
        md.append("Every run prints a summary at its end; `--summary-json FILE` writes it as JSON. This page defines "
                + "every field of the JSON: its unit and the values it may take. The tests check these bounds on the "
                + "summaries of real single-node and cluster runs.\n\n");
        md.append("Each figure has one definition for three scopes: a **single-node run**, a **cluster run** (rank 0's "
                + "summary, for the whole job) and **one node of a cluster** (what rank r > 0 prints, and its entry "
                + "in `nodes`), which describes that node's share: the pairs it ran, the items they needed and its "
                + "own devices. A figure with no defined value (no items needed, no pairs) is printed `n/a` and left "
                + "out of the JSON; fields that are zero or empty are left out too. After a node is lost "
                + "(`cluster.lost_nodes` > 0) its figures never reach rank 0, so the cluster's loads and kernel "
                + "times miss its share while `pairs` keeps the results it had sent.\n\n");
        md.append("Paths: `a.b` is key `b` inside `a`, `[]` the elements of a list, `{name}` a key that varies.\n");
        for (Map.Entry<String, String> section : SECTIONS.entrySet()) {
            List<Field> fields = SummaryFields.ALL.stream().filter(f -> belongs(f, section.getKey())).toList();
            md.append("\n## ").append(section.getValue()).append("\n\n");
            md.append("| field | unit | bounds | definition |\n|---|---|---|---|\n");
            for (Field f : fields) {
                md.append("| `").append(f.path()).append("` | ").append(f.unit()).append(" | ")
                        .append(f.bound().text()).append(" | ").append(f.definition().replace("|", "\\|"))
                        .append(" |\n");
            }
        }
        return md.toString();
    }

    /** Sections group their fields; time figures share one table, and top-level scalars make the first. */
    private static boolean belongs(Field f, String section) {
        String own = f.section();
        if (own.equals("busy_seconds") || own.equals("device_busy_seconds")) {
            own = "step_seconds";
        }
        if (!SECTIONS.containsKey(own)) {
            own = "";
        }
        return own.equals(section);
    }
}
