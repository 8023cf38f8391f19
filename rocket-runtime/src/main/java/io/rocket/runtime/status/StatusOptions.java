package io.rocket.runtime.status;

import io.rocket.cluster.ClusterSecurity;

import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * How a run shows itself while it goes on: the status endpoint (on every node that is given a port; rank 0 serves the
 * whole job), the directory where rank 0 writes the endpoint's URL and, at the end, the final status, and the event
 * log.
 *
 * @param port     the endpoint's port, 0 for a free one, {@link #OFF} for no endpoint
 * @param bind     the address the endpoint listens on
 * @param dir      where rank 0 writes {@value #URL_FILE} and {@value #FINAL_FILE}, or null
 * @param eventLog the event log rank 0 appends to, or null
 * @param security the cluster secret: with one, the endpoint asks for the token derived from it
 * @param announce told the endpoint's URL once it listens (the command line prints it), or null
 */
public record StatusOptions(int port, String bind, Path dir, Path eventLog, ClusterSecurity security,
                            Consumer<String> announce) {
    /** {@link #port} of a run without an endpoint. */
    public static final int OFF = -1;
    /** The default {@link #bind}: only this machine can ask. */
    public static final String LOOPBACK = "127.0.0.1";
    /** No endpoint, no files: a cluster node that only reports to rank 0. */
    public static final StatusOptions NONE = new StatusOptions(OFF, null, null, null, null, null);
    /** The file in {@link #dir} holding the endpoint's URL while the run goes on. */
    public static final String URL_FILE = "status.url";
    /** The file in {@link #dir} holding the final status document once the run ended. */
    public static final String FINAL_FILE = "status.json";

    /**
     * @param port     the endpoint's port, 0 for a free one, {@link #OFF} for none
     * @param bind     the address to listen on; null for {@link #LOOPBACK}
     * @param dir      where rank 0 writes the URL and the final status, or null
     * @param eventLog the event log, or null
     * @param security the cluster secret, or null for none
     * @param announce told the endpoint's URL, or null
     */
    public StatusOptions {
        if (port < OFF || port > 65535) {
            throw new IllegalArgumentException("--status-port must be 0..65535, got " + port);
        }
        bind = bind == null ? LOOPBACK : bind;
        security = security == null ? ClusterSecurity.NONE : security;
        announce = announce == null ? url -> { } : announce;
    }

    /** @return whether this node serves an endpoint */
    public boolean serves() {
        return port != OFF;
    }

    /** @return whether the node samples its status at all: for an endpoint, an event log or a status directory */
    public boolean enabled() {
        return serves() || eventLog != null || dir != null;
    }
}
