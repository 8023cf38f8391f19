package io.rocket.runtime.status;

import io.rocket.cluster.NodeStatus;

import java.util.List;
import java.util.function.Consumer;

/**
 * What a node shows of itself while it runs: every node samples its figures ({@link NodeProbe}) at its sampler's
 * status tick and publishes them when they changed (a cluster node to rank 0); rank 0 also keeps the job's view
 * ({@link JobStatus}), appends it to the event log when it changed and, at the end, writes the final status into
 * the status directory. A node given a port serves its endpoint ({@link StatusServer}, opened with the event log
 * before the run: {@link StatusStart}): rank 0 the whole job, another node its own figures.
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
    private volatile NodeStatus latest;
    private boolean finished;

    /**
     * Serves the endpoint and keeps the event log that {@code start} opened before the run.
     *
     * @param start   what the status opened before the run's clock started ({@link StatusStart#NONE} for nothing);
     *                it closes with the node, after this
     * @param probe   reads this node's figures
     * @param publish where this node's figures go when they changed (to rank 0, or kept here on rank 0)
     * @param job     the job's view on rank 0, null on another rank
     */
    public LiveStatus(StatusStart start, NodeProbe probe, Consumer<NodeStatus> publish, JobStatus job) {
        this.options = start.options();
        this.probe = probe;
        this.publish = publish;
        this.job = job;
        // The first sample is the sampler's first tick, at once and on its own thread: nothing here on the run's.
        this.latest = NodeStatus.empty(probe.rank(), "starting");
        this.log = job != null ? start.log() : null;
        if (start.server() != null) {
            start.server().serve(new StatusServer.Content(this::statusJson, this::metrics));
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
                StatusStart.write(options.dir().resolve(StatusOptions.FINAL_FILE), job.document(true).toPrettyString() + "\n");
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

    /** A run that ends without {@link #finish} has failed: its end is recorded as such. */
    @Override
    public void close() {
        if (!finished && job != null) {
            finish(false);
        }
    }
}
