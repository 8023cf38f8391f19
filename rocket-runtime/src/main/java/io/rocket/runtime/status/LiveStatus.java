package io.rocket.runtime.status;

import io.rocket.cluster.NodeStatus;
import io.rocket.core.RocketException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a node shows of itself while it runs: every node samples its figures ({@link NodeProbe}) at its sampler's
 * status tick and publishes them when they changed (a cluster node to rank 0); rank 0 also keeps the job's view
 * ({@link JobStatus}), appends it to the event log when it changed, writes the endpoint's URL and, at the end, the
 * final status into the status directory. A node given a port serves its endpoint ({@link StatusServer}): rank 0
 * the whole job, another node its own figures.
 *
 * <p>{@link #tick} runs on the node's sampler thread, {@link #finish} on the run's thread once the sampler stopped,
 * the endpoint reads on its own thread (the latest sample is volatile, {@link JobStatus} is synchronized).
 */
public final class LiveStatus implements AutoCloseable {
    private final StatusOptions options;
    private final NodeProbe probe;
    private final Consumer<NodeStatus> publish;
    private final JobStatus job;
    private final EventLog log;
    private final StatusServer server;
    private volatile NodeStatus latest;
    private boolean finished;

    /**
     * Loads what the first sample and the first event-log line need and would otherwise load on the run's time: the
     * host's name (a name-service lookup), the JVM's memory beans, and the JSON writer and the time format (class
     * loading of tens of milliseconds, in a fresh JVM, taken from the run's threads on a small machine). Called once,
     * before the run's clock starts, where the run shows its status.
     */
    public static void prepare() {
        NodeProbe.host();
        JobStatus.node(NodeStatus.empty(0, "starting")).toString();
        Instant.now().toString();
    }

    /**
     * Serves the endpoint (when there is one) and opens the event log (rank 0).
     *
     * @param options the status options
     * @param server  the node's endpoint, started before the run (see {@link StatusServer#StatusServer(StatusOptions)}),
     *                or null; it closes with the node, not here
     * @param probe   reads this node's figures
     * @param publish where this node's figures go when they changed (to rank 0, or kept here on rank 0)
     * @param job     the job's view on rank 0, null on another rank
     * @throws RocketException when the port cannot be bound or a file cannot be written
     */
    public LiveStatus(StatusOptions options, StatusServer server, NodeProbe probe, Consumer<NodeStatus> publish,
                      JobStatus job) {
        this.options = options;
        this.probe = probe;
        this.publish = publish;
        this.job = job;
        // The first sample is the sampler's first tick, at once and on its own thread: nothing here on the run's.
        this.latest = NodeStatus.empty(probe.rank(), "starting");
        this.log = job != null && options.eventLog() != null ? new EventLog(options.eventLog()) : null;
        this.server = server;
        if (server != null) {
            server.serve(new StatusServer.Content(this::statusJson, this::metrics));
        }
        if (job != null && options.dir() != null) {
            try {
                Files.deleteIfExists(options.dir().resolve(StatusOptions.FINAL_FILE)); // an earlier run's end
            } catch (IOException e) {
                throw new RocketException("cannot remove " + options.dir().resolve(StatusOptions.FINAL_FILE) + ": "
                        + e.getMessage(), e);
            }
        }
        if (server != null) {
            options.announce().accept(server.url());
            if (job != null && options.dir() != null) {
                write(options.dir().resolve(StatusOptions.URL_FILE), server.url() + "\n");
            }
        }
    }

    /** The sampler's status tick: samples, publishes what changed, and on rank 0 records and logs the job. */
    public void tick() {
        boolean changed = sample("running");
        if (job != null) {
            job.tick();
            if (changed && log != null) {
                log.append(job.document(false));
            }
        }
    }

    /**
     * The run ended on this node: its last figures go out, and rank 0 records the job's final state in the event log
     * and the status directory. Rank 0 calls it once the other nodes' last figures are in.
     *
     * @param ok whether the run succeeded (else the job is {@code failed})
     */
    public void finish(boolean ok) {
        if (finished) {
            return;
        }
        finished = true;
        sample(ok ? "done" : "failed");
        if (job != null) {
            job.finish(ok ? "done" : "failed");
            job.tick();
            if (log != null) {
                log.append(job.document(false));
            }
            if (options.dir() != null) {
                write(options.dir().resolve(StatusOptions.FINAL_FILE), job.document(true).toPrettyString() + "\n");
            }
        }
    }

    private boolean sample(String state) {
        NodeStatus now = probe.sample(state);
        boolean changed = now.changedSince(latest);
        latest = now;
        if (changed) {
            publish.accept(now);
        }
        return changed;
    }

    private String statusJson() {
        return job != null ? job.document(true).toString() : JobStatus.node(latest).toString();
    }

    private String metrics() {
        return job != null ? PrometheusText.render(job.document(false), job.nodes())
                : PrometheusText.render(null, List.of(latest));
    }

    /** Writes {@code file} whole or not at all: a reader never sees half of it. */
    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new RocketException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Closes the event log; a run that ends without {@link #finish} has failed. */
    @Override
    public void close() throws IOException {
        try {
            if (!finished && job != null) {
                finish(false);
            }
        } finally {
            if (log != null) {
                log.close();
            }
        }
    }
}
