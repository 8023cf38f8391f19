package io.rocket.cluster;

import io.rocket.steal.Backlog;
import io.rocket.steal.Region;
import io.rocket.steal.Wakeup;
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
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

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
 *   <li>Nodes of different speeds ({@link Stragglers}): every request carries the thief's measured rate
 *       ({@link NodeRate}) and every reply the victim's, so each node learns the others' rates. A victim gives a
 *       share of its unbegun work in proportion to the two rates ({@link StealShare}). When nothing is left to
 *       steal (the rest is in flight), an idle node asks a node at least {@link #DUPLICATE_SPEEDUP} times slower
 *       than itself for the unfinished pairs of its oldest leaf in flight ({@link InFlightPairs}) and runs them
 *       too: the first result reaches rank 0, which drops the second.</li>
 * </ul>
 *
 * <p>The agent does not poll while its node is busy: it parks until the scheduler says the node may have run out of
 * regions to start or moved to another window, or another node announces a new window ({@link Wakeup}).
 *
 * <p>Lost ranks are neither asked nor waited for. Requests time out, so a lost reply costs a retry, not a hang. Victims answer on the receive thread: taking a
 * region is a few locked deque operations, never user code.
 */
public final class RemoteStealing implements AutoCloseable {
    private static final long REPLY_TIMEOUT_MILLIS = 500;
    private static final long MIN_BACKOFF_NANOS = 100_000;
    private static final long MAX_BACKOFF_NANOS = 2_000_000;
    /** How many windows a node may be ahead of the slowest before it helps: one is the normal seam between two. */
    static final int LEAD = 2;
    private static final int UNKNOWN = -1;
    /** Only a node at least this many times slower than an idle node is worth duplicating. */
    static final double DUPLICATE_SPEEDUP = 1.5;

    /** What a steal request asks for; the ordinal is the wire byte. */
    enum Mode {
        /** The victim's furthest work (an idle node). */
        BACK,
        /** The next part of the victim's share (a node ahead of the victim). */
        FRONT,
        /** Copies of pairs the victim has in flight (an idle node, once nothing is left to steal). */
        DUPLICATE
    }

    private final ClusterOptions options;
    private final Membership membership;
    private final ClusterChannel channel;
    private final WorkScheduler scheduler;
    private final NodeRate rate;
    private final InFlightPairs inFlight;
    private final int tileSize;
    /** The last rate each rank reported, as double bits; 0: unknown. */
    private final AtomicLongArray rates;
    /** Empty steal replies in a row after which an idle node tries a duplicate instead. */
    private final int emptyBeforeDuplicate;
    private final LongAdder duplicateAttempts = new LongAdder();
    private final LongAdder duplicatedPairs = new LongAdder();
    private final AtomicLong nextId = new AtomicLong();
    private final LongAdder attempts = new LongAdder();
    private final LongAdder successes = new LongAdder();
    private final LongAdder lent = new LongAdder();
    private final LongAdder helpAttempts = new LongAdder();
    private final LongAdder helps = new LongAdder();
    /** The last position each rank announced, {@link #UNKNOWN} until it has. */
    private final AtomicIntegerArray positions;
    private final Thread agent;
    /** Where the agent parks while there is nothing to do; rung by the scheduler and by progress messages. */
    private final Wakeup wakeup = new Wakeup();
    private final BooleanSupplier actionable = this::actionable;
    private volatile CompletableFuture<List<Region>> pending;
    private volatile long pendingId = -1;
    private volatile boolean running = true;

    /**
     * @param rate     this node's measured rate
     * @param inFlight this node's pairs in flight, lent to faster nodes for duplication
     * @param tileSize leaf size, for cutting a rate-scaled share
     */
    public RemoteStealing(ClusterOptions options, Membership membership, ClusterChannel channel, WorkScheduler scheduler,
                   NodeRate rate, InFlightPairs inFlight, int tileSize) {
        this.options = options;
        this.membership = membership;
        this.channel = channel;
        this.scheduler = scheduler;
        this.rate = rate;
        this.inFlight = inFlight;
        this.tileSize = tileSize;
        this.rates = new AtomicLongArray(options.nodes());
        this.emptyBeforeDuplicate = Math.max(2, options.nodes() - 1);
        this.positions = new AtomicIntegerArray(options.nodes());
        for (int r = 0; r < options.nodes(); r++) {
            positions.set(r, UNKNOWN);
        }
        this.agent = new Thread(this::loop, "rocket-steal-agent-" + options.rank());
        agent.setDaemon(true);
        scheduler.watch(wakeup);
    }

    public void start() {
        if (options.nodes() > 1) {
            agent.start();
        }
    }

    private void loop() {
        long backoff = MIN_BACKOFF_NANOS;
        int empty = 0;
        while (running) {
            announce();
            rate.rate(); // keeps the measurement going while no request asks for it
            int behind = scheduler.dequesEmpty() ? slowestBehind() : -1;
            List<Region> regions;
            if (behind >= 0) {
                regions = help(behind);
            } else if (scheduler.wantsWork()) {
                int straggler = empty >= emptyBeforeDuplicate ? straggler() : -1;
                if (straggler >= 0) {
                    regions = take(straggler, Mode.DUPLICATE, duplicateAttempts, null);
                    empty = 0; // steal again before the next duplicate: new work may have turned up
                } else {
                    regions = stealFromRandomNode();
                    empty = regions != null && regions.isEmpty() ? empty + 1 : 0;
                }
            } else {
                // The timeout is not a poll for work: it is when the rate is due for its next sample. Every change
                // that gives the agent something to do rings it; a change the scheduler does not ring for would
                // cost at most this long, never a hang.
                wakeup.await(actionable, rate.nanosToNextSample());
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
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

    /**
     * Whether the agent has something to do: announce a new window, help a node behind, steal, or stop. What the
     * loop acts on, read again by the parked agent after each ring.
     */
    private boolean actionable() {
        return !running
                || scheduler.position() != positions.get(options.rank())
                || scheduler.wantsWork()
                || scheduler.dequesEmpty() && slowestBehind() >= 0;
    }

    /** Takes over the next part of {@code slowest}'s share, holding this node's own parts meanwhile. */
    private List<Region> help(int slowest) {
        scheduler.holdBacklog(true);
        try {
            return take(slowest, Mode.FRONT, helpAttempts, helps);
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
        return take(victim, Mode.BACK, attempts, successes);
    }

    /**
     * The slowest other living node when duplication is on and it is at least {@link #DUPLICATE_SPEEDUP} times
     * slower than this one by the rates learnt so far, else -1.
     */
    private int straggler() {
        double own = rate.rate();
        if (!options.stragglers().duplicate() || own <= 0) {
            return -1;
        }
        int slowest = -1;
        double least = own / DUPLICATE_SPEEDUP;
        for (int r = 0; r < rates.length(); r++) {
            double known = Double.longBitsToDouble(rates.get(r));
            if (r != options.rank() && known > 0 && known < least && !membership.isLost(r)) {
                least = known;
                slowest = r;
            }
        }
        return slowest;
    }

    /**
     * Asks {@code victim} for work, gives what comes to this node's workers and counts the try and its outcome
     * ({@code taken} null: a duplicate, counted in pairs).
     */
    private List<Region> take(int victim, Mode mode, LongAdder tries, LongAdder taken) {
        tries.increment();
        List<Region> regions = ask(victim, mode);
        if (regions != null && !regions.isEmpty()) {
            if (taken != null) {
                taken.increment();
            }
            received(mode, regions);
        }
        return regions;
    }

    /** Regions that came in a reply (or late, after their request timed out): this node's to run now. */
    private void received(Mode mode, List<Region> regions) {
        if (mode == Mode.DUPLICATE) {
            for (Region region : regions) {
                duplicatedPairs.add(region.pairs());
            }
        }
        scheduler.give(regions);
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
     * Asks {@code victim} for work (see {@link Mode}) and waits for the reply: the regions, empty after a refusal or
     * a timeout, or null when interrupted.
     */
    private List<Region> ask(int victim, Mode mode) {
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
            out.writeByte(mode.ordinal());
            out.writeFloat((float) rate.rate());
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

    /** Registers the message kinds this layer owns: steal requests and replies, and window progress. */
    public void register(ControlDispatcher control) {
        control.register(Wire.Kind.STEAL_REQUEST, this::onRequest);
        control.register(Wire.Kind.STEAL_REPLY, this::onReply);
        control.register(Wire.Kind.PROGRESS, (from, in) -> onProgress(in));
    }

    /** Another node is in a new window. */
    void onProgress(DataInputStream in) throws IOException {
        int from = in.readInt();
        int position = in.readInt();
        if (from >= 0 && from < positions.length()) {
            positions.set(from, position);
            wakeup.ring(); // this node may now be ahead of the slowest
        }
    }

    /**
     * A thief asks: give our next part (a node ahead of us), our furthest work (an idle node; a share scaled to the
     * two rates when both are known), copies of pairs we have in flight (an idle node faster than us), or nothing.
     */
    void onRequest(Address from, DataInputStream in) throws IOException {
        long id = in.readLong();
        Mode mode = mode(in.readUnsignedByte());
        double thief = NodeRate.sane(in.readFloat());
        learn(membership.rankOf(from), thief);
        double own = rate.rate();
        List<Region> regions = switch (mode) {
            case FRONT -> scheduler.lendFront();
            case BACK -> options.stragglers().rateScaledSteals() && thief > 0 && own > 0
                    ? StealShare.take(scheduler, StealShare.target(scheduler.unbegunPairs(), thief, own), tileSize)
                    : scheduler.stealForRemote();
            case DUPLICATE -> options.stragglers().duplicate() && thief > 0 && thief > own * DUPLICATE_SPEEDUP
                    ? inFlight.lendOldest(scheduler) : List.of();
        };
        if (mode != Mode.DUPLICATE) {
            lent.add(regions.size());
        }
        channel.send(from, Wire.encode(Wire.Kind.STEAL_REPLY, out -> {
            out.writeLong(id);
            out.writeByte(mode.ordinal());
            Wire.writeRegions(out, regions);
            out.writeFloat((float) own);
        }));
    }

    void onReply(Address from, DataInputStream in) throws IOException {
        long id = in.readLong();
        Mode mode = mode(in.readUnsignedByte());
        List<Region> regions = Wire.readRegions(in);
        learn(membership.rankOf(from), NodeRate.sane(in.readFloat()));
        CompletableFuture<List<Region>> reply = pending;
        if (id == pendingId && reply != null) {
            reply.complete(regions);
        } else if (!regions.isEmpty()) {
            // A reply that arrived after its timeout still carries work that is now ours: keep it.
            received(mode, regions);
        }
    }

    private static Mode mode(int ordinal) throws IOException {
        if (ordinal >= Mode.values().length) {
            throw new IOException("unknown steal mode " + ordinal);
        }
        return Mode.values()[ordinal];
    }

    /** Remembers the rate {@code rank} reported (unknown rates and ranks are ignored). */
    private void learn(int rank, double value) {
        if (rank >= 0 && rank < rates.length() && value > 0) {
            rates.set(rank, Double.doubleToRawLongBits(value));
        }
    }

    /** Where the agent parks, for tests that count its wake-ups. */
    Wakeup wakeup() {
        return wakeup;
    }

    public long attempts() {
        return attempts.sum();
    }

    public long successes() {
        return successes.sum();
    }

    /** Times this node, ahead of the others, asked the slowest node for its next part. */
    public long helpAttempts() {
        return helpAttempts.sum();
    }

    /** Parts this node took over from nodes behind it. */
    public long helps() {
        return helps.sum();
    }

    public long lent() {
        return lent.sum();
    }

    /** Times this node, idle with nothing left to steal, asked a slower node for pairs to duplicate. */
    public long duplicateAttempts() {
        return duplicateAttempts.sum();
    }

    /** Pairs this node received to run as duplicates of a slower node's pairs in flight. */
    public long duplicatedPairs() {
        return duplicatedPairs.sum();
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
