package io.rocket.steal.cluster;

import io.rocket.steal.Backlog;
import io.rocket.steal.Region;
import io.rocket.steal.WorkScheduler;
import org.jgroups.Address;

import java.io.DataInputStream;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The second level of hierarchical stealing, and what keeps the cluster in step.
 *
 * <ul>
 *   <li>When no worker of this node has a region left to start (see {@link WorkScheduler#wantsWork}), the steal
 *       agent asks a random other rank for work: the last part of its share not yet begun, else its largest region
 *       (split when it is its last), with exponential back-off after empty replies.</li>
 *   <li>Each node tells all others which window of the curve it is in ({@link WorkScheduler#position}) whenever
 *       that changes. A node {@link #LEAD} windows ahead of the slowest node stops taking its own parts and asks
 *       that node for the next part of its share instead. So a slow node (a busy host, a slow disk) is helped at
 *       once rather than at the end of the run, and all nodes stay in the same windows, where the L3 finds the
 *       items they share in the L2 of the node that asked last.</li>
 * </ul>
 *
 * <p>Lost ranks are neither asked nor waited for. Requests time out, so a lost reply costs a retry, not a hang. Victims answer on the receive thread: taking a
 * region is a few locked deque operations, never user code.
 */
final class RemoteStealing implements AutoCloseable {
    private static final long REPLY_TIMEOUT_MILLIS = 500;
    private static final long MIN_BACKOFF_NANOS = 100_000;
    private static final long MAX_BACKOFF_NANOS = 2_000_000;
    /** How many windows a node may be ahead of the slowest before it helps: one is the normal seam between two. */
    static final int LEAD = 2;
    private static final int UNKNOWN = -1;

    private final ClusterOptions options;
    private final Membership membership;
    private final ClusterChannel channel;
    private final WorkScheduler scheduler;
    private final AtomicLong nextId = new AtomicLong();
    private final LongAdder attempts = new LongAdder();
    private final LongAdder successes = new LongAdder();
    private final LongAdder lent = new LongAdder();
    private final LongAdder helpAttempts = new LongAdder();
    private final LongAdder helps = new LongAdder();
    /** The last position each rank announced, {@link #UNKNOWN} until it has. */
    private final AtomicIntegerArray positions;
    private final Thread agent;
    private volatile CompletableFuture<List<Region>> pending;
    private volatile long pendingId = -1;
    private volatile boolean running = true;

    RemoteStealing(ClusterOptions options, Membership membership, ClusterChannel channel, WorkScheduler scheduler) {
        this.options = options;
        this.membership = membership;
        this.channel = channel;
        this.scheduler = scheduler;
        this.positions = new AtomicIntegerArray(options.nodes());
        for (int r = 0; r < options.nodes(); r++) {
            positions.set(r, UNKNOWN);
        }
        this.agent = new Thread(this::loop, "rocket-steal-agent-" + options.rank());
        agent.setDaemon(true);
    }

    void start() {
        if (options.nodes() > 1) {
            agent.start();
        }
    }

    private void loop() {
        long backoff = MIN_BACKOFF_NANOS;
        while (running) {
            announce();
            int behind = scheduler.dequesEmpty() ? slowestBehind() : -1;
            List<Region> regions;
            if (behind >= 0) {
                regions = help(behind);
            } else if (scheduler.wantsWork()) {
                regions = stealFromRandomNode();
            } else {
                LockSupport.parkNanos(200_000);
                continue;
            }
            if (regions == null) {
                return;
            }
            if (regions.isEmpty()) {
                LockSupport.parkNanos(backoff);
                backoff = Math.min(backoff * 2, MAX_BACKOFF_NANOS);
            } else {
                backoff = MIN_BACKOFF_NANOS;
            }
        }
    }

    /** Takes over the next part of {@code slowest}'s share, holding this node's own parts meanwhile. */
    private List<Region> help(int slowest) {
        scheduler.holdBacklog(true);
        try {
            return take(slowest, true, helpAttempts, helps);
        } finally {
            scheduler.holdBacklog(false);
        }
    }

    /** Takes the furthest work of a random other node. */
    private List<Region> stealFromRandomNode() {
        List<Integer> living = membership.living();
        int others = living.size() - 1;
        if (others < 1) {
            return List.of(); // the others are lost: rank 0 hands out their work
        }
        int pick = ThreadLocalRandom.current().nextInt(others);
        int victim = living.get(pick);
        if (victim == options.rank()) {
            victim = living.get(others);
        }
        return take(victim, false, attempts, successes);
    }

    /** Asks {@code victim} for work, gives what comes to this node's workers and counts the try and its outcome. */
    private List<Region> take(int victim, boolean front, LongAdder tries, LongAdder taken) {
        tries.increment();
        List<Region> regions = ask(victim, front);
        if (regions != null && !regions.isEmpty()) {
            taken.increment();
            scheduler.give(regions);
        }
        return regions;
    }

    /** Tells the other nodes this node's window when it changed. */
    private void announce() {
        int position = scheduler.position();
        if (position != positions.get(options.rank())) {
            positions.set(options.rank(), position);
            channel.send(null, Wire.encode(Wire.Kind.PROGRESS, out -> {
                out.writeInt(options.rank());
                out.writeInt(position);
            }));
        }
    }

    /**
     * The slowest other node when this node is {@link #LEAD} windows or more ahead of it, else -1. Nodes that have
     * not said where they are yet do not count: at the start, a node whose first part lies in a later window would
     * otherwise take itself to be ahead of everyone.
     */
    private int slowestBehind() {
        int own = positions.get(options.rank());
        if (own == Backlog.DONE) {
            return -1;
        }
        int slowest = -1;
        int least = Integer.MAX_VALUE;
        for (int r = 0; r < positions.length(); r++) {
            int p = positions.get(r);
            if (r != options.rank() && p != UNKNOWN && p < least && !membership.isLost(r)) {
                least = p;
                slowest = r;
            }
        }
        return slowest >= 0 && own - least >= LEAD ? slowest : -1;
    }

    /**
     * Asks {@code victim} for work ({@code front}: the next part of its share, else its furthest work) and waits for
     * the reply: the regions, empty after a refusal or a timeout, or null when interrupted.
     */
    private List<Region> ask(int victim, boolean front) {
        Address address = membership.address(victim);
        if (address == null) {
            LockSupport.parkNanos(MIN_BACKOFF_NANOS);
            return List.of();
        }
        long id = nextId.incrementAndGet();
        CompletableFuture<List<Region>> reply = new CompletableFuture<>();
        pending = reply;
        pendingId = id;
        channel.send(address, Wire.encode(Wire.Kind.STEAL_REQUEST, out -> {
            out.writeLong(id);
            out.writeBoolean(front);
        }));
        try {
            return reply.get(REPLY_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {
            return List.of();
        }
    }

    /** Another node is in a new window. */
    void onProgress(DataInputStream in) throws IOException {
        int from = in.readInt();
        int position = in.readInt();
        if (from >= 0 && from < positions.length()) {
            positions.set(from, position);
        }
    }

    /** A thief asks: give our next part (a node ahead of us), or our furthest work (an idle node), or nothing. */
    void onRequest(Address from, DataInputStream in) throws IOException {
        long id = in.readLong();
        boolean front = in.readBoolean();
        List<Region> regions = front ? scheduler.lendFront() : scheduler.stealForRemote();
        lent.add(regions.size());
        channel.send(from, Wire.encode(Wire.Kind.STEAL_REPLY, out -> {
            out.writeLong(id);
            Wire.writeRegions(out, regions);
        }));
    }

    void onReply(DataInputStream in) throws IOException {
        long id = in.readLong();
        List<Region> regions = Wire.readRegions(in);
        CompletableFuture<List<Region>> reply = pending;
        if (id == pendingId && reply != null) {
            reply.complete(regions);
        } else if (!regions.isEmpty()) {
            // A reply that arrived after its timeout still carries work that is now ours: keep it.
            scheduler.give(regions);
        }
    }

    long attempts() {
        return attempts.sum();
    }

    long successes() {
        return successes.sum();
    }

    /** Times this node, ahead of the others, asked the slowest node for its next part. */
    long helpAttempts() {
        return helpAttempts.sum();
    }

    /** Parts this node took over from nodes behind it. */
    long helps() {
        return helps.sum();
    }

    long lent() {
        return lent.sum();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        agent.interrupt();
        if (agent.isAlive()) {
            agent.join(2_000);
        }
    }
}
