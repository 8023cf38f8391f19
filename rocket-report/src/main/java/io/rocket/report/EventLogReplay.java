package io.rocket.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocket.core.RocketException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A run's status rebuilt from its event log ({@code --event-log}): the last whole line is the run as far as it got,
 * and every line is a point of its history, as the live endpoint's {@code history} would have had them. A run killed
 * mid-write leaves a torn last line, which is skipped.
 */
public final class EventLogReplay {
    private static final ObjectMapper JSON = new ObjectMapper();

    private EventLogReplay() {
    }

    /**
     * Reads an event log.
     *
     * @param file the event log
     * @return the last status document, with a {@code history} of every line and the number of torn lines skipped
     *         in {@code torn_lines}; a log without the run's end says {@code stopped} for its state
     * @throws RocketException when the file cannot be read or holds no whole line
     */
    public static ObjectNode read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new RocketException("cannot read the event log " + file + ": " + e.getMessage(), e);
        }
        ObjectNode last = null;
        ArrayNode history = JSON.createArrayNode();
        int torn = 0;
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode event;
            try {
                event = JSON.readTree(line);
            } catch (JsonProcessingException e) {
                torn++;
                continue;
            }
            if (!(event instanceof ObjectNode o) || !o.has("pairs_done") || !o.has("nodes")) {
                torn++;
                continue;
            }
            last = o;
            ObjectNode point = history.addObject();
            point.put("seconds", o.path("elapsed_seconds").asDouble());
            point.put("pairs_done", o.path("pairs_done").asLong());
            ArrayNode ranks = point.putArray("rank_pairs");
            for (JsonNode n : o.path("nodes")) {
                ranks.add(n.path("pairs_done").asLong());
            }
        }
        if (last == null) {
            throw new RocketException("the event log " + file + " holds no status line");
        }
        if (last.path("job").path("state").asText().equals("running")) {
            // The log ends without the run's end: it was killed, or stopped at a time limit.
            ((ObjectNode) last.path("job")).put("state", "stopped");
            last.putNull("eta_seconds");
        }
        last.set("history", history);
        last.put("torn_lines", torn);
        return last;
    }
}
