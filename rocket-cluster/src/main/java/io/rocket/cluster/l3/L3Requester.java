package io.rocket.cluster.l3;

import io.rocket.node.RemoteItems;
import io.rocket.core.HostBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The requester role of the L3 level: this node's fetches. A fetch asks the item's contact (or, when this node is
 * the contact, its own list: with nobody listed the item is a home load, no request made), and is pending until its
 * bytes arrive, a MISS, its deadline ({@link #expire}) or the loss of a node; each ends in exactly one callback.
 * It also remembers with which request this node is listed at each item's contact, so an eviction from L2 becomes
 * a DROP notice for that listing, sent off the L2's lock before the next request.
 */
final class L3Requester {
    private static final Logger LOG = LoggerFactory.getLogger(L3Requester.class);

    private final int rank;
    private final long timeoutNanos;
    private final L3Transport transport;
    private final L3Contact contacts;
    private final L3Stats stats;
    /**
     * Per item: the id of the request with which this node was last listed at the item's contact, until this node's
     * L2 evicts the item (then the contact is told, {@link #evicted}); 0 when not listed.
     */
    private final AtomicLongArray listedAs;
    /** Eviction notices for the items' contacts, queued under the L2's lock and sent off it. */
    private final Queue<L3Message> drops = new ConcurrentLinkedQueue<>();
    private final Map<Long, Fetch> pending = new ConcurrentHashMap<>();
    /** Items with a fetch in flight from this node, with how many. */
    private final Map<Integer, Integer> fetching = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong(1);

    /** A fetch in flight; its state moves WAITING → RECEIVING → done, or WAITING → done (miss, timeout). */
    private static final class Fetch {
        static final int WAITING = 0;
        static final int RECEIVING = 1;
        static final int DONE = 2;
        final int item;
        final HostBuffer target;
        final RemoteItems.Callback callback;
        final long deadline;
        final AtomicInteger state = new AtomicInteger(WAITING);

        Fetch(int item, HostBuffer target, RemoteItems.Callback callback, long deadline) {
            this.item = item;
            this.target = target;
            this.callback = callback;
            this.deadline = deadline;
        }
    }

    L3Requester(int rank, int items, long timeoutNanos, L3Transport transport, L3Contact contacts, L3Stats stats) {
        this.rank = rank;
        this.timeoutNanos = timeoutNanos;
        this.transport = transport;
        this.contacts = contacts;
        this.stats = stats;
        this.listedAs = new AtomicLongArray(items);
    }

    void fetch(int item, HostBuffer target, RemoteItems.Callback callback) {
        sendDrops();
        long id = ((long) rank << L3Message.RANK_SHIFT) | nextId.getAndIncrement();
        listedAs.set(item, id);
        int contact = contacts.contact(item);
        if (contact != rank) {
            begin(id, item, target, callback);
            transport.sendControl(contact, new L3Message(L3Message.Kind.REQUEST, id, item, rank, 0, L3Contact.NONE));
            return;
        }
        long[] toAsk = contacts.list(item, id, rank);
        if (toAsk.length == 0) {
            stats.homeLoads.increment();
            callback.missed();
            return;
        }
        begin(id, item, target, callback);
        transport.sendControl(L3Message.rankOf(toAsk[0]), new L3Message(L3Message.Kind.FORWARD, id, item, rank, 1,
                toAsk));
    }

    /** A request leaves this node: counted, and pending until its bytes, a MISS or its deadline. */
    private void begin(long id, int item, HostBuffer target, RemoteItems.Callback callback) {
        stats.requests.increment();
        fetching.merge(item, 1, Integer::sum);
        pending.put(id, new Fetch(item, target, callback, System.nanoTime() + timeoutNanos));
    }

    /**
     * Whether this node has a fetch of {@code item} under way other than request {@code listedWith}: one that reached
     * the contact after the request a candidate is asked to serve, and so one it must not wait for.
     */
    boolean fetchingNewerThan(int item, long listedWith) {
        return fetching.containsKey(item) && !pending.containsKey(listedWith);
    }

    /**
     * This node's L2 evicted {@code item} (called under the L2's lock): if this node is listed for it, the contact is
     * told, off the lock ({@link #sendDrops}), so it stops sending requests here that could only be passed on.
     * Without the notice a contact's list keeps naming nodes that held an item long ago, and every request for an item
     * loaded again in a later pass walks the whole stale list before its MISS.
     */
    void evicted(int item) {
        long id = listedAs.getAndSet(item, 0);
        if (id != 0) {
            drops.add(new L3Message(L3Message.Kind.DROP, id, item, rank, 0, L3Contact.NONE));
        }
    }

    /**
     * Sends the eviction notices queued since the last call. Called off the L2 lock: before each fetch (an L2 miss
     * evicts to make room, so the notice leaves before the request that caused it) and on each timer tick.
     */
    private void sendDrops() {
        L3Message drop;
        while ((drop = drops.poll()) != null) {
            transport.sendControl(contacts.contact(drop.item()), drop);
        }
    }

    /** A fetch left {@link #pending}: its item is no longer being fetched by it. */
    private Fetch ended(Fetch fetch) {
        if (fetch != null) {
            fetching.computeIfPresent(fetch.item, (k, v) -> v == 1 ? null : v - 1);
        }
        return fetch;
    }

    void onMiss(L3Message m) {
        Fetch fetch = ended(pending.remove(m.requestId()));
        if (fetch != null && fetch.state.compareAndSet(Fetch.WAITING, Fetch.DONE)) {
            stats.misses.increment();
            fetch.callback.missed();
        }
    }

    /** Gives up every fetch still waiting for a reply (they load locally); returns how many. */
    int missWaiting() {
        int cancelled = 0;
        for (Map.Entry<Long, Fetch> e : pending.entrySet()) {
            Fetch fetch = e.getValue();
            if (fetch.state.compareAndSet(Fetch.WAITING, Fetch.DONE)) {
                ended(pending.remove(e.getKey()));
                stats.misses.increment();
                cancelled++;
                fetch.callback.missed();
            }
        }
        return cancelled;
    }

    /** See {@link DistributedCache#beginReceive}. */
    ByteBuffer beginReceive(long requestId, int item, long length) {
        Fetch fetch = pending.get(requestId);
        if (fetch == null || fetch.item != item || length > fetch.target.capacity()
                || !fetch.state.compareAndSet(Fetch.WAITING, Fetch.RECEIVING)) {
            return null;
        }
        return fetch.target.raw();
    }

    /** See {@link DistributedCache#endReceive}. */
    void endReceive(long requestId, int hop, long length, boolean ok) {
        Fetch fetch = ended(pending.remove(requestId));
        if (fetch == null || !fetch.state.compareAndSet(Fetch.RECEIVING, Fetch.DONE)) {
            return;
        }
        if (ok) {
            fetch.target.length(length);
            stats.hitsByHop.incrementAndGet(Math.min(hop, stats.hops()));
            stats.bytesReceived.add(length);
            fetch.callback.fetched();
        } else {
            stats.misses.increment();
            fetch.callback.missed();
        }
    }

    /** The timer's tick: sends queued eviction notices and turns fetches past their deadline into local loads. */
    void expire() {
        sendDrops();
        long now = System.nanoTime();
        for (Map.Entry<Long, Fetch> e : pending.entrySet()) {
            Fetch fetch = e.getValue();
            if (now - fetch.deadline > 0 && fetch.state.compareAndSet(Fetch.WAITING, Fetch.DONE)) {
                ended(pending.remove(e.getKey()));
                stats.timeouts.increment();
                LOG.debug("L3 request for item {} timed out; loading locally", fetch.item);
                try {
                    fetch.callback.missed();
                } catch (RuntimeException ex) {
                    LOG.error("L3 timeout callback failed", ex);
                }
            }
        }
    }

    /** Drops every fetch still pending, without calling back. */
    void close() {
        for (Long id : pending.keySet()) {
            Fetch fetch = ended(pending.remove(id));
            if (fetch != null) {
                fetch.state.set(Fetch.DONE);
            }
        }
    }
}
