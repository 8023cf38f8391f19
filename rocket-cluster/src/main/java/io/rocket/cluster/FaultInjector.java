package io.rocket.cluster;

import io.rocket.core.RocketException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The faults a test or a chaos run injects into one node ({@link Faults}): a slow node (each pair waits before it
 * is submitted) and a crash after a number of pairs (the node falls silent at once and leaves, as a killed process
 * would). Dropped messages are the channel's business.
 */
public final class FaultInjector {
    private static final Logger LOG = LoggerFactory.getLogger(FaultInjector.class);

    private final int rank;
    private final long delayNanos;
    private final long crashAfter;
    private final ClusterChannel channel;
    private final Consumer<Throwable> abort;
    private final AtomicBoolean crashed = new AtomicBoolean();

    /** @param abort stops this node's run with an error */
    public FaultInjector(ClusterOptions cluster, ClusterChannel channel, Consumer<Throwable> abort) {
        this.rank = cluster.rank();
        this.delayNanos = cluster.faults().delayMicros() * 1000;
        this.crashAfter = cluster.faults().crashAfter();
        this.channel = channel;
        this.abort = abort;
    }

    /** Before a pair goes to the pipeline: an injected slow node waits here. */
    public void beforeSubmit() throws InterruptedException {
        if (delayNanos > 0) {
            TimeUnit.NANOSECONDS.sleep(delayNanos);
        }
    }

    /** After a pair job ended, with the number this node has run: crashes once that reaches the injected count. */
    public void afterPair(long pairsRun) {
        if (crashAfter >= 0 && pairsRun >= crashAfter && crashed.compareAndSet(false, true)) {
            Thread t = new Thread(() -> {
                LOG.warn("rank {}: injected crash after {} pairs", rank, pairsRun);
                // Silent first, as a killed process is: what the stopping pipeline reports (pairs failing as its
                // executors close) must not reach rank 0 as results.
                channel.kill();
                abort.accept(new RocketException("cluster: rank " + rank + " crashed (injected fault)"));
            }, "rocket-injected-crash");
            t.setDaemon(true);
            t.start();
        }
    }

    /** Whether this node crashed on purpose (its run then fails with that, not with the cluster's state). */
    public boolean crashed() {
        return crashed.get();
    }
}
