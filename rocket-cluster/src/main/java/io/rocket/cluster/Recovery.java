package io.rocket.cluster;

import io.rocket.steal.PairSet;
import io.rocket.steal.Region;
import io.rocket.steal.StartShares;
import io.rocket.steal.WorkScheduler;
import org.jgroups.Address;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Rank 0's re-execution of a lost node's work. Which work that is cannot be known from the lost node, so it is found
 * by elimination, in a <em>recovery round</em> after each loss:
 *
 * <ol>
 *   <li>Rank 0 tells every living node which ranks are lost (LOST). Each one stops dealing with them, sends the
 *       results it has buffered, and replies with its <em>claims</em> (CLAIMS): the regions it will still run —
 *       its share not yet begun, its queued regions and the leaves it is computing ({@link WorkScheduler#claims}).
 *       Results and claims travel on the same ordered channel, so when the claims are in, so are the results that
 *       were computed before them.</li>
 *   <li>Every pair that is neither finished (rank 0's {@link PairSet}) nor claimed by a living node is lost work:
 *       the lost node's share and backlog, regions it stole or took over, its pairs in flight, results it had not
 *       sent yet. Rank 0 cuts it along the curve in contiguous stretches, one per living node, and sends each its
 *       stretch (RECOVER); stealing evens out the rest.</li>
 * </ol>
 *
 * <p>The same round also runs when no result has come in for a while ({@link #MIN_STALL_MILLIS}, doubling while
 * rounds find nothing): it finds work that fell between two nodes without any of them being lost, such as a steal
 * reply that never arrived, and otherwise only confirms that everything missing is being computed.
 *
 * <p>Work a round sent to another node that a later round finds neither finished nor claimed again never reached
 * that node, or was lost on its way on (a RECOVER or a steal reply that did not arrive). It is not sent out again:
 * the same work is cut into the same stretch for the same node every time, so a message that is lost every time (a
 * link that delivers nothing one way) would have the rounds hand it to that node forever. Rank 0 runs it itself,
 * which takes no message, and stealing spreads it from there.
 *
 * <p>The only error this can make is to run a pair twice (a region in transit between two nodes during the round,
 * a result still in a send buffer), never to miss one: rank 0's finished-pair set drops the second result, so every
 * pair is written once. A claim that does not arrive in time counts as empty, and a node lost during a round makes
 * another round follow.
 */
public final class Recovery implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);
    /** Regions per living node the lost work is cut into before the stretches are drawn. */
    private static final int REGIONS_PER_NODE = 8;
    /** No result for this long starts a round; each round that finds nothing doubles it, up to the maximum. */
    static final long MIN_STALL_MILLIS = 2_000;
    private static final long MAX_STALL_MILLIS = 60_000;

    private final ClusterChannel channel;
    private final Membership membership;
    private final WorkScheduler scheduler;
    private final PairSet finished;
    private final Runnable drainResults;
    private final int tileSize;
    private final long claimTimeoutMillis;
    private final ScheduledExecutorService rounds = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "rocket-recovery");
        t.setDaemon(true);
        return t;
    });
    private long lastCount = -1;
    private long lastProgressNanos = System.nanoTime();
    private long stallMillis = MIN_STALL_MILLIS;
    private final AtomicBoolean roundDue = new AtomicBoolean();
    private final AtomicInteger roundIds = new AtomicInteger();
    private final AtomicInteger lostNodes = new AtomicInteger();
    private final LongAdder recomputed = new LongAdder();
    /** Pairs a round sent to a node other than rank 0 (only the rounds thread reads and adds to it). */
    private final PairSet sent;
    private volatile Round current;

    /** The claims of one round, as they come in. */
    private static final class Round {
        final int id;
        final Set<Integer> waitingFor = ConcurrentHashMap.newKeySet();
        final List<Region> claimed = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch all = new CountDownLatch(1);

        Round(int id, List<Integer> ranks) {
            this.id = id;
            waitingFor.addAll(ranks);
            if (waitingFor.isEmpty()) {
                all.countDown();
            }
        }

        void answered(int rank) {
            if (waitingFor.remove(rank) && waitingFor.isEmpty()) {
                all.countDown();
            }
        }
    }

    /**
     * @param finished     rank 0's finished pairs (resumed ones included)
     * @param drainResults returns once every result batch received so far is in {@code finished}
     * @param claimTimeout how long a round waits for the living nodes' claims
     */
    public Recovery(ClusterChannel channel, Membership membership, WorkScheduler scheduler, PairSet finished,
             Runnable drainResults, int tileSize, long claimTimeoutMillis) {
        this.channel = channel;
        this.membership = membership;
        this.scheduler = scheduler;
        this.finished = finished;
        this.drainResults = drainResults;
        this.tileSize = tileSize;
        this.claimTimeoutMillis = claimTimeoutMillis;
        this.sent = new PairSet(finished.items(), finished.ordered()); // the same orientation: they are merged
    }

    /** Takes the living nodes' claims (CLAIMS). */
    public void register(ControlDispatcher control) {
        control.register(Wire.Kind.CLAIMS, (from, in) -> onClaims(in));
    }

    /** The run has started: from now on a stall starts a round. */
    public void start() {
        rounds.scheduleWithFixedDelay(this::watch, 500, 500, TimeUnit.MILLISECONDS);
    }

    /** Starts a round when no result came in for the stall time (on the rounds thread, so never during one). */
    private void watch() {
        long count = finished.size();
        long now = System.nanoTime();
        if (count != lastCount) {
            lastCount = count;
            lastProgressNanos = now;
            return;
        }
        if (!finished.isComplete() && now - lastProgressNanos > TimeUnit.MILLISECONDS.toNanos(stallMillis)) {
            LOG.info("recovery: no result for {} ms; checking that every missing pair is being computed",
                    stallMillis);
            lastProgressNanos = now;
            long found = round("no result for " + stallMillis + " ms");
            stallMillis = found > 0 ? MIN_STALL_MILLIS : Math.min(MAX_STALL_MILLIS, stallMillis * 2);
        }
    }

    /** A rank was lost: a recovery round follows (losses seen together share one). */
    public void nodeLost(int rank) {
        lostNodes.incrementAndGet();
        Round round = current;
        if (round != null) {
            round.answered(rank); // its claims will never come; the next round redoes what it held
        }
        if (roundDue.compareAndSet(false, true)) {
            rounds.execute(() -> {
                round("rank " + rank + " lost");
                lastProgressNanos = System.nanoTime();
            });
        }
    }

    /** A living node's claims for a round. */
    void onClaims(DataInputStream in) throws IOException {
        int id = in.readInt();
        int rank = in.readInt();
        List<Region> regions = Wire.readRegions(in);
        Round round = current;
        if (round != null && round.id == id && round.waitingFor.contains(rank)) {
            round.claimed.addAll(regions);
            round.answered(rank);
        }
    }

    /** One round; returns the pairs it handed out again. */
    private long round(String reason) {
        roundDue.set(false);
        try {
            if (finished.isComplete()) {
                return 0;
            }
            int id = roundIds.incrementAndGet();
            List<Integer> others = new ArrayList<>(membership.living());
            others.remove(Integer.valueOf(0));
            Set<Integer> lost = membership.lost();
            Round round = new Round(id, others);
            current = round;
            channel.send(null, Wire.encode(Wire.Kind.LOST, out -> {
                out.writeInt(id);
                out.writeInt(lost.size());
                for (int r : lost) {
                    out.writeInt(r);
                }
            }));
            if (!round.all.await(claimTimeoutMillis, TimeUnit.MILLISECONDS)) {
                LOG.warn("recovery: no claims from ranks {} within {} ms; what they hold may be run twice",
                        round.waitingFor, claimTimeoutMillis);
            }
            drainResults.run();
            PairSet covered = finished.copy();
            synchronized (round.claimed) {
                round.claimed.forEach(covered::addRegion);
            }
            scheduler.claims().forEach(covered::addRegion);
            // What no round sent out before is shared among the living nodes; what a round sent to another node
            // and is missing again stays here (see the class comment).
            PairSet notSentBefore = covered.copy();
            notSentBefore.addAll(sent);
            List<Region> work = new ArrayList<>();
            notSentBefore.missingRegions(tileSize, work::add);
            work.forEach(covered::addRegion);
            List<Region> again = new ArrayList<>();
            covered.missingRegions(tileSize, again::add);
            long pairs = work.stream().mapToLong(Region::pairs).sum();
            long againPairs = again.stream().mapToLong(Region::pairs).sum();
            recomputed.add(pairs + againPairs);
            if (!work.isEmpty()) {
                share(work, pairs);
            }
            if (!again.isEmpty()) {
                scheduler.give(again);
            }
            if (pairs > 0 || !lost.isEmpty()) {
                LOG.warn("recovery round {} ({}; lost so far: {}): {} pairs in {} regions are run again by ranks {}",
                        id, reason, lost, pairs, work.size(), membership.living());
            }
            if (againPairs > 0) {
                LOG.warn("recovery round {} ({}): {} pairs in {} regions sent out by an earlier round are still "
                        + "missing; rank 0 runs them", id, reason, againPairs, again.size());
            }
            return pairs + againPairs;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("recovery round failed", e);
        }
        return 0;
    }

    /** Cuts the lost work in one contiguous stretch per living node and hands each its own. */
    private void share(List<Region> work, long pairs) {
        List<Integer> living = membership.living();
        List<Region> fine = new ArrayList<>();
        long want = (long) REGIONS_PER_NODE * living.size();
        for (Region region : work) {
            int pieces = (int) Math.max(1, Math.min(want, want * region.pairs() / Math.max(1, pairs)));
            fine.addAll(StartShares.cut(region, tileSize, pieces));
        }
        List<List<Region>> stretches = StartShares.stretches(fine, living.size());
        for (int k = 0; k < living.size(); k++) {
            List<Region> stretch = stretches.get(k);
            int rank = living.get(k);
            if (stretch.isEmpty()) {
                continue;
            }
            Address address = rank == 0 ? null : membership.address(rank);
            if (address == null) {
                scheduler.give(stretch); // rank 0's own stretch, or one whose node was lost meanwhile
            } else {
                stretch.forEach(sent::addRegion);
                channel.send(address, Wire.encode(Wire.Kind.RECOVER, out -> Wire.writeRegions(out, stretch)));
            }
        }
    }

    public int lostNodes() {
        return lostNodes.get();
    }

    /** Pairs handed out again after losses. */
    public long recomputedPairs() {
        return recomputed.sum();
    }

    @Override
    public void close() {
        rounds.shutdownNow();
    }
}
