package io.rocket.apps;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Locale;

/**
 * The status document as one screen of text for a terminal: the job's progress, rate and ETA in three lines, then
 * one line per node.
 */
final class StatusScreen {
    private StatusScreen() {
    }

    static String format(JsonNode s) {
        StringBuilder b = new StringBuilder();
        JsonNode job = s.path("job");
        long done = s.path("pairs_done").asLong();
        long total = s.path("pairs_total").asLong();
        b.append(String.format(Locale.ROOT, "%s on %d node%s: %s, %,d of %,d pairs (%.1f %%)%n",
                job.path("app").asText(), job.path("nodes").asInt(), job.path("nodes").asInt() == 1 ? "" : "s",
                job.path("state").asText(), done, total, total == 0 ? 100.0 : 100.0 * done / total));
        JsonNode eta = s.path("eta_seconds");
        b.append(String.format(Locale.ROOT, "  %,.0f pairs/s now, %,.0f overall; %s elapsed; ETA %s%n",
                s.path("pairs_per_second_now").asDouble(), s.path("pairs_per_second_overall").asDouble(),
                duration(s.path("elapsed_seconds").asDouble()), eta.isNumber() ? duration(eta.asDouble()) : "unknown"));
        b.append(String.format(Locale.ROOT, "  lost ranks: %s; %,d pairs recomputed; %,d bad item loads; %,d pair errors%n",
                s.path("lost_ranks").isEmpty() ? "none" : s.path("lost_ranks").toString(),
                s.path("recomputed_pairs").asLong(), s.path("bad_item_loads").asLong(), s.path("pair_errors").asLong()));
        b.append(String.format(Locale.ROOT, "%n%4s  %-16s %-8s %10s %12s %6s %6s %6s %8s %9s %15s %5s%n", "rank",
                "host", "state", "pairs/s", "pairs", "L1 hit", "L2 hit", "L3 hit", "L3 req", "steals", "direct MB",
                "GPU"));
        for (JsonNode n : s.path("nodes")) {
            JsonNode gpu = n.path("gpu_busy_fraction");
            b.append(String.format(Locale.ROOT, "%4d  %-16.16s %-8s %,10.0f %,12d %6s %6s %6s %,8d %9s %15s %5s%n",
                    n.path("rank").asInt(), n.path("host").asText(), n.path("state").asText(),
                    n.path("pairs_per_second").asDouble(), n.path("pairs_done").asLong(),
                    percent(n.path("l1_hit_rate").asDouble()), percent(n.path("l2_hit_rate").asDouble()),
                    percent(n.path("l3_hit_rate").asDouble()), n.path("l3_requests").asLong(),
                    n.path("local_steals").asLong() + "/" + n.path("remote_steals").asLong(),
                    n.path("direct_memory_used_bytes").asLong() / 1_000_000 + "/"
                            + n.path("direct_memory_max_bytes").asLong() / 1_000_000,
                    gpu.isNumber() ? percent(gpu.asDouble()) : "-"));
        }
        return b.toString();
    }

    private static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * fraction);
    }

    private static String duration(double seconds) {
        long s = Math.round(seconds);
        return s < 60 ? s + " s" : s < 3600 ? String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60)
                : String.format(Locale.ROOT, "%d h %02d min", s / 3600, s % 3600 / 60);
    }
}
