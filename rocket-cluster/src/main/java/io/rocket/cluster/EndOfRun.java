package io.rocket.cluster;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The end of a cluster run. Rank 0, once every pair is in, tells all nodes the run is over (DONE). Then every node
 * sends its figures to rank 0 (STATS); rank 0 waits until it has those of every node still in the run, woken by each
 * report and by every change of the membership (a node lost now sends none), and confirms the end to all (BYE), after
 * which the nodes leave. Every wait is bounded by {@link #TIMEOUT_SECONDS}.
 */
public final class EndOfRun {
    private static final Logger LOG = LoggerFactory.getLogger(EndOfRun.class);
    /** The longest any node waits for another at the end of the run. */
    public static final long TIMEOUT_SECONDS = 30;

    private final int rank;
    private final Membership membership;
    private final ClusterChannel channel;
    private final Runnable finish;
    /** Rank 0: the figures received so far, by rank; guarded by this. */
    private final Map<Integer, NodeFigures> reports = new HashMap<>();
    private final CountDownLatch bye = new CountDownLatch(1);
    private final AtomicBoolean doneSent = new AtomicBoolean();

    /** @param finish ends this node's run (its scheduler stops waiting for pairs) */
    public EndOfRun(int rank, Membership membership, ClusterChannel channel, Runnable finish) {
        this.rank = rank;
        this.membership = membership;
        this.channel = channel;
        this.finish = finish;
    }

    /** Takes DONE, STATS and BYE, and every view change (a node that left will send no figures). */
    public void register(ControlDispatcher control) {
        control.register(Wire.Kind.DONE, (from, in) -> finish.run());
        control.register(Wire.Kind.STATS, (from, in) -> received(NodeFiguresWire.read(in)));
        control.register(Wire.Kind.BYE, (from, in) -> bye.countDown());
        control.onViewChange(view -> membershipChanged());
    }

    /** Rank 0: every pair is in; ends the run for all nodes (once, however often it is called). */
    public void allDone() {
        if (doneSent.compareAndSet(false, true)) {
            channel.send(null, Wire.encode(Wire.Kind.DONE, out -> { }));
        }
    }

    /**
     * The run is over on this node: nodes leaving from now on are no loss, and rank 0 leaving counts as its BYE (it
     * leaves only after sending it, which can arrive after the view that no longer lists it).
     */
    public void ending() {
        membership.ending(bye::countDown);
    }

    /** A rank left or was lost: rank 0 stops waiting for its figures. */
    public synchronized void membershipChanged() {
        notifyAll();
    }

    /**
     * Exchanges the figures: a rank other than 0 sends its own and waits for rank 0's BYE; rank 0 gathers every
     * node's and sends BYE. Returns the figures of the nodes that reported (on ranks other than 0, its own).
     */
    public Collection<NodeFigures> exchange(NodeFigures own) throws IOException, InterruptedException {
        if (rank != 0) {
            channel.send(membership.address(0), Wire.encode(Wire.Kind.STATS,
                    out -> NodeFiguresWire.write(out, own)));
            if (!bye.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("cluster: rank 0 did not confirm the end of the run");
            }
            return List.of(own);
        }
        received(own);
        List<NodeFigures> all = awaitReports();
        channel.send(null, Wire.encode(Wire.Kind.BYE, out -> { }));
        return all;
    }

    private synchronized void received(NodeFigures figures) {
        reports.put(figures.rank(), figures);
        notifyAll();
    }

    /** Rank 0 waits for the figures of every node still in the run, at most {@link #TIMEOUT_SECONDS}. */
    private synchronized List<NodeFigures> awaitReports() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (true) {
            List<Integer> missing = missing();
            if (missing.isEmpty()) {
                break;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                LOG.warn("cluster: ranks {} sent no figures within {} s", missing, TIMEOUT_SECONDS);
                break;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return new ArrayList<>(reports.values());
    }

    /** The ranks still in the run whose figures are not in. */
    private List<Integer> missing() {
        List<Integer> missing = new ArrayList<>();
        for (int r : membership.living()) {
            if (!reports.containsKey(r) && membership.inView(r)) {
                missing.add(r);
            }
        }
        return missing;
    }
}
