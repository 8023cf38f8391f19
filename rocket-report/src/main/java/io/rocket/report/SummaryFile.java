package io.rocket.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocket.core.RocketException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads the JSON run summary that {@code --summary-json} writes (see {@link io.rocket.core.summary.RunSummary}),
 * kept as a JSON tree so that summaries of older or newer versions, with fields missing or added, still read.
 */
public final class SummaryFile {
    private SummaryFile() {
    }

    /** @throws RocketException with a one-line message when the file is missing or not a run summary */
    public static JsonNode read(Path file) {
        JsonNode root;
        try (InputStream in = Files.newInputStream(file)) {
            root = new ObjectMapper().readTree(in);
        } catch (NoSuchFileException e) {
            throw new RocketException("cannot read summary " + file + ": no such file");
        } catch (JsonProcessingException e) {
            throw new RocketException(file + " is not a run summary (not JSON: "
                    + e.getOriginalMessage().lines().findFirst().orElse("") + ")");
        } catch (IOException e) {
            throw new RocketException("cannot read summary " + file + ": " + e.getMessage());
        }
        if (root == null || !root.isObject() || !(root.has("wall_seconds") || root.has("pairs"))) {
            throw new RocketException(file + " is not a run summary (expected the JSON object --summary-json "
                    + "writes, with wall_seconds and pairs)");
        }
        return root;
    }
}
