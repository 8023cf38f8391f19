package io.rocket.runtime.status;

import io.rocket.cluster.NodeStatus;
import io.rocket.core.RocketException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
     * Opens the endpoint (when the options give a port) and the event log (rank 0).
     *
     * @param options the status options
     * @param probe   reads this node's figures
     * @param publish where this node's figures go when they changed (to rank 0, or kept here on rank 0)
     * @param job     the job's view on rank 0, null on another rank
     * @throws RocketException when the port cannot be bound or a file cannot be written
     */
    public LiveStatus(StatusOptions options, NodeProbe probe, Consumer<NodeStatus> publish, JobStatus job) {
        this.options = options;
        this.probe = probe;
        this.publish = publish;
        this.job = job;
        this.latest = probe.sample("running");
        publish.accept(latest);
        this.log = job != null && options.eventLog() != null ? new EventLog(options.eventLog()) : null;
        this.server = options.serves() ? new StatusServer(options,
                new StatusServer.Content(this::statusJson, this::metrics)) : null;
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

    /** Stops the endpoint and closes the event log; a run that ends without {@link #finish} has failed. */
    @Override
    public void close() throws IOException {
        try {
            if (!finished && job != null) {
                finish(false);
            }
        } finally {
            if (server != null) {
                server.close();
            }
            if (log != null) {
                log.close();
            }
        }
    }
}
