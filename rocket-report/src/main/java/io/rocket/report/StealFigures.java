package io.rocket.report;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Work stealing per node of a cluster run, from the run summary's per-node figures: steals from the node's own
 * devices (local) and from other nodes (remote), attempts and successes; helps (taking over part of the slowest
 * node's next window); regions lent to thieves; plus the node's pairs, loads and data-plane bytes for the table
 * beside the chart. Empty for single-node summaries, which do not record steals, and without a summary.
 */
public record StealFigures(List<NodeSteals> nodes) {

    /** One node's figures. */
    public record NodeSteals(String label, int rank, long localAttempts, long localSuccesses, long remoteAttempts,
                             long remoteSuccesses, long helpAttempts, long helps, long regionsLent, long pairs,
                             long loads, int devices, long bytesSent, long bytesReceived, Double wallSeconds) {
    }

    public static StealFigures of(JsonNode summary) {
        List<NodeSteals> list = new ArrayList<>();
        if (summary != null) {
            for (JsonNode n : Json.array(summary, "nodes")) {
                int rank = (int) Json.whole(n, 0, "rank");
                list.add(new NodeSteals("rank " + rank, rank,
                        Json.whole(n, 0, "steals", "local_attempts"), Json.whole(n, 0, "steals", "local_successes"),
                        Json.whole(n, 0, "steals", "remote_attempts"), Json.whole(n, 0, "steals", "remote_successes"),
                        Json.whole(n, 0, "steals", "help_attempts"), Json.whole(n, 0, "steals", "helps"),
                        Json.whole(n, 0, "steals", "regions_lent"), Json.whole(n, 0, "pairs"),
                        Json.whole(n, 0, "loads"), (int) Json.whole(n, 0, "devices"), Json.whole(n, 0, "bytes_sent"),
                        Json.whole(n, 0, "bytes_received"), Json.real(n, "wall_seconds")));
            }
        }
        return new StealFigures(List.copyOf(list));
    }
}
