package io.rocket.runtime.status;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocket.core.RocketException;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * The event log ({@code --event-log FILE}): the status document as one JSON line each time the job's figures
 * changed, with the time it was taken ({@code time}), appended and flushed line by line. A run killed at any point
 * leaves whole lines behind (but perhaps a torn last one, which readers skip), from which {@code rocket report
 * --event-log} rebuilds the run's page.
 *
 * <p>Written from rank 0's sampler thread only.
 */
final class EventLog implements AutoCloseable {
    private final Path file;
    private final Writer out;

    EventLog(Path file) {
        this.file = file;
        try {
            out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new RocketException("cannot open the event log " + file + ": " + e.getMessage(), e);
        }
    }

    /** Appends one line: {@code document} with the time first. */
    void append(ObjectNode document) {
        ObjectNode line = document.objectNode();
        line.put("time", Instant.now().toString());
        line.setAll(document);
        try {
            out.write(line.toString());
            out.write('\n');
            out.flush(); // a line reaches the file as it is written: a run killed later keeps it
        } catch (IOException e) {
            throw new RocketException("cannot write the event log " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
