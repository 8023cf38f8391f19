package io.rocket.cluster;

import io.rocket.core.RocketException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Joins the group on a thread of its own, so that the wait for the cluster to form, connecting included, is bounded
 * by {@code --join-timeout} ({@link Membership#awaitStart}); JGroups' join itself retries until the channel is
 * closed. A refusal at join fails the run at once. {@link #close} leaves the group.
 */
public final class GroupJoin implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupJoin.class);
    /**
     * How long a node that sent a REJECT to all waits, at most, for the others to confirm it before it leaves. The
     * confirmations end the wait as soon as they arrive, so the bound only matters when a member is gone or starved
     * of CPU; it must be generous, because a REJECT multicast by a node that has already left cannot be
     * retransmitted, and the node that missed it would wait out its whole join timeout (seen at 300 ms on a loaded
     * 2-core machine).
     */
    static final long REJECT_REACH_MILLIS = 3_000;

    private final ClusterOptions cluster;
    private final ClusterChannel channel;
    private final Membership membership;
    /** The thread joining the group; it ends once the channel has joined or its join failed. */
    private volatile Thread joiner;

    public GroupJoin(ClusterOptions cluster, ClusterChannel channel, Membership membership) {
        this.cluster = cluster;
        this.channel = channel;
        this.membership = membership;
    }

    /** Starts joining; {@code began} (System.nanoTime) is when connecting began, for the log. */
    public void start(long began) {
        Thread t = new Thread(() -> {
            try {
                channel.connect(cluster.loopbackGroup());
                LOG.info("rank {}: connected in {} ms", cluster.rank(), (System.nanoTime() - began) / 1_000_000);
                membership.connected();
            } catch (RocketException e) {
                membership.joinFailed(e); // ignored when the run failed first (its channel closed at the deadline)
            } catch (RuntimeException e) {
                membership.joinFailed(new RocketException("cluster: cannot join: " + e, e));
            }
        }, "rocket-join");
        t.setDaemon(true);
        joiner = t;
        t.start();
    }

    /**
     * Leaves the group, once a REJECT this node sent to all has reached the others (bounded), so that they stop with
     * its reason. A join still in progress holds the channel's lock: it is abandoned, and the channel closed on another
     * thread once the join has ended, so that a run that failed to form returns at once.
     */
    @Override
    public void close() {
        try {
            membership.awaitRejectsSeen(REJECT_REACH_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // leave at once, but leave
        }
        channel.abandonJoin();
        Thread t = joiner;
        if (t == null || !t.isAlive()) {
            channel.close();
            return;
        }
        Thread closer = new Thread(() -> {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            channel.close();
        }, "rocket-join-close");
        closer.setDaemon(true);
        closer.start();
    }
}
