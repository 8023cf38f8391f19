package io.rocket.cluster.l3;

import io.rocket.node.RemoteItems;
import io.rocket.cache.SlotCache;
import io.rocket.core.HostBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;

/**
 * The L3 level: the paper's distributed cache lookup (§IV-A3). Item i's contact node is {@code i mod P} (cheap,
 * stateless and balanced for index keys) unless the schedule names a <em>home</em> node per item ({@link #homes}).
 * The contact keeps {@code candidates[i]}, the h ranks that most recently asked for i; on a request it puts the
 * requester first and forwards the request down the old list. A candidate holding the item in its L2 sends it
 * straight to the requester over the data plane; otherwise it forwards to the next, and the last replies MISS. So a
 * request costs at most h + 2 messages and needs no central directory. A node whose L2 evicts an item it is listed
 * for tells the contact (one DROP message per eviction, sent with its next request), so the lists name only nodes
 * that hold the item or are getting it, and a request for an item nobody holds any more is answered MISS by the
 * contact at once instead of walking a list of nodes that all pass it on (beyond the paper, whose lists only age).
 *
 * <p>A node that needs an item it is the contact of looks the item up in its own list, without a message: when the
 * list is empty it loads the item at once (a <em>home load</em>, no L3 request is made) and is listed, so requests
 * that follow are sent to it and wait for that load; otherwise it asks the newest candidate directly. In cluster
 * bands an item's home is the node whose rows it is in: that node loads its rows first, for its diagonal block,
 * without a round trip, and the other nodes' requests for them go straight to the node that has them.
 *
 * <p>Every fetch has a deadline: a lost message or a slow peer costs a local load, never a hang. Late data for a
 * fetch that already timed out is discarded by the data plane (see {@link #beginReceive}), so a slot reused for a
 * local load is never overwritten. Handlers run on network threads and never run user code.
 *
 * <p>This class is the facade; the roles are {@link L3Contact} (the lists, REQUEST and DROP), {@link L3Requester}
 * (this node's fetches, MISS, received bytes, deadlines and eviction notices) and {@link L3Candidate} (FORWARD:
 * serving or passing on).
 */
public final class DistributedCache implements RemoteItems, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DistributedCache.class);

    private final int rank;
    private final int nodes;
    private final L3Stats stats;
    private final L3Contact contact;
    private final L3Requester requester;
    private final L3Candidate candidate;
    private final ScheduledExecutorService timer;

    /**
     * @param rank         this node
     * @param nodes        P
     * @param items        n
     * @param hops         h, the candidates kept per item
     * @param timeoutNanos how long a requester waits before loading locally
     * @param transport    the network
     * @param hostCache    this node's L2, read when serving candidates
     */
    public DistributedCache(int rank, int nodes, int items, int hops, long timeoutNanos, L3Transport transport,
                            SlotCache<HostBuffer> hostCache) {
        if (hops < 1) {
            throw new IllegalArgumentException("distributed cache hops must be >= 1");
        }
        this.rank = rank;
        this.nodes = nodes;
        this.stats = new L3Stats(hops);
        this.contact = new L3Contact(nodes, items, hops, transport);
        this.requester = new L3Requester(rank, items, timeoutNanos, transport, contact, stats);
        this.candidate = new L3Candidate(transport, hostCache, requester, stats);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rocket-l3-timer-" + rank);
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(1, Math.min(50, TimeUnit.NANOSECONDS.toMillis(timeoutNanos) / 4));
        timer.scheduleAtFixedRate(requester::expire, period, period, TimeUnit.MILLISECONDS);
        hostCache.onEvict(requester::evicted);
    }

    /**
     * The contact node of an item: {@code item mod P}, or when that rank is lost, one of the living ranks chosen the
     * same way on every node.
     */
    public int contact(int item) {
        return contact.contact(item);
    }

    /**
     * Makes {@code homes} (item to rank, the same function on every node) the items' contacts, in place of
     * {@code i mod P}. Set before this node makes its first request; the nodes' requests reach the contacts they name,
     * so a node that has not set it yet only spreads an item's candidates over two lists, never loses a request.
     */
    public void homes(IntUnaryOperator homes) {
        contact.homes(homes);
    }

    /**
     * {@code rank} left the run: it is no longer anyone's contact or candidate, and every fetch still waiting for a
     * reply is given up at once (loaded locally) rather than waiting out its timeout, since its request may have been
     * on its way through the lost node. Fetches already receiving bytes end with their connection.
     */
    public void memberLost(int rank) {
        if (rank < 0 || rank >= nodes || rank == this.rank || !contact.memberLost(rank)) {
            return;
        }
        int cancelled = requester.missWaiting();
        LOG.info("L3: rank {} lost; {} waiting fetches load locally instead", rank, cancelled);
    }

    public L3Stats stats() {
        return stats;
    }

    @Override
    public void fetch(int item, HostBuffer target, Callback callback) {
        requester.fetch(item, target, callback);
    }

    /** Handles a control message addressed to this node. */
    public void onMessage(L3Message m) {
        switch (m.kind()) {
            case REQUEST -> contact.onRequest(m);
            case FORWARD -> candidate.onForward(m);
            case MISS -> requester.onMiss(m);
            case DROP -> contact.onDrop(m);
        }
    }

    /**
     * Ends this node's part as a candidate: later requests are passed on to the next candidate (or answered MISS),
     * and this waits at most {@code timeoutMillis} for the serves under way to send their bytes and unpin L2.
     * Called once the run's pairs are all done and before the L2 is checked and closed: other nodes may still ask
     * for items then (to finish duplicates), and a serve in flight would otherwise hold an L2 slot past the run.
     * Returns whether every serve ended in time.
     */
    public boolean stopServing(long timeoutMillis) throws InterruptedException {
        return candidate.stopServing(timeoutMillis);
    }

    /**
     * The data plane has item bytes for a request: returns the buffer to read {@code length} bytes into, or null to
     * discard them (the fetch timed out, is unknown, or the item does not fit). Once a buffer is returned the fetch
     * cannot time out; the data plane must call {@link #endReceive} either way.
     */
    public ByteBuffer beginReceive(long requestId, int item, long length) {
        return requester.beginReceive(requestId, item, length);
    }

    /** The bytes of a request arrived ({@code ok}) or the connection broke while reading them. */
    public void endReceive(long requestId, int hop, long length, boolean ok) {
        requester.endReceive(requestId, hop, length, ok);
    }

    /**
     * Stops the timer and drops every fetch still waiting, without calling back: the run is over (no pair waits
     * for an item then) or has failed, and the pipeline that would load the items is already closed.
     */
    @Override
    public void close() {
        timer.shutdownNow();
        requester.close();
    }
}
