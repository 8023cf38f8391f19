package io.rocket.runtime.status;

import io.rocket.cluster.NodeStatus;
import io.rocket.core.RocketException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;

/**
 * What a node's status opens before the run's clock starts, because it costs the same whatever the run's length: the
 * endpoint (starting the JDK's HTTP server takes tens of milliseconds), its URL told and written, and on rank 0 the
 * event log; and the classes the first sample and event-log line need, loaded. On a run of a second these fixed
 * costs were a quarter of its time when they were counted in it. {@link LiveStatus} takes them over once the run is
 * wired; until then the endpoint answers 503.
 */
public final class StatusStart implements AutoCloseable {
    /** Nothing opened: a cluster node that only reports to rank 0. */
    public static final StatusStart NONE = new StatusStart(StatusOptions.NONE, null, null);

    private final StatusOptions options;
    private final StatusServer server;
    private final EventLog log;

    private StatusStart(StatusOptions options, StatusServer server, EventLog log) {
        this.options = options;
        this.server = server;
        this.log = log;
    }

    /**
     * Opens what {@code options} ask for, or nothing (null) when they ask for no status.
     *
     * @param options  the status options, or null
     * @param rankZero whether this node is rank 0 (the job's view, its event log and status directory)
     * @return what was opened, or null
     * @throws RocketException when the port cannot be bound or a file cannot be written
     */
    public static StatusStart open(StatusOptions options, boolean rankZero) {
        if (options == null || !options.enabled()) {
            return null;
        }
        loadClasses();
        if (rankZero && options.dir() != null) {
            try {
                Files.deleteIfExists(options.dir().resolve(StatusOptions.FINAL_FILE)); // an earlier run's end
            } catch (IOException e) {
                throw new RocketException("cannot remove " + options.dir().resolve(StatusOptions.FINAL_FILE) + ": "
                        + e.getMessage(), e);
            }
        }
        StatusServer server = options.serves() ? new StatusServer(options) : null;
        EventLog log = null;
        try {
            if (server != null) {
                options.announce().accept(server.url());
                if (rankZero && options.dir() != null) {
                    write(options.dir().resolve(StatusOptions.URL_FILE), server.url() + "\n");
                }
            }
            log = rankZero && options.eventLog() != null ? new EventLog(options.eventLog()) : null;
        } catch (RuntimeException e) {
            if (server != null) {
                server.close();
            }
            throw e;
        }
        return new StatusStart(options, server, log);
    }

    /**
     * Loads what the first sample and the first event-log line need, which would otherwise load on the run's time:
     * the host's name (a name-service lookup), the JVM's memory beans, the JSON nodes and writer and the time format.
     */
    private static void loadClasses() {
        NodeProbe.host();
        JobStatus.node(NodeStatus.empty(0, "starting")).toString();
        Instant.now().toString();
    }

    /** @return the status options */
    StatusOptions options() {
        return options;
    }

    /** @return the endpoint, or null without one */
    StatusServer server() {
        return server;
    }

    /** @return rank 0's event log, or null without one */
    EventLog log() {
        return log;
    }

    /** Writes {@code file} whole or not at all: a reader never sees half of it. */
    static void write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new RocketException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Stops the endpoint and closes the event log: after {@link LiveStatus} wrote its last line. */
    @Override
    public void close() throws IOException {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (log != null) {
                log.close();
            }
        }
    }
}
