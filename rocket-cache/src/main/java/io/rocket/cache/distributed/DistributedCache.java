package io.rocket.cache.distributed;

import io.rocket.cache.CacheRequest;
import io.rocket.cache.SlotCache;
import io.rocket.core.HostBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;

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
 */
public final class DistributedCache implements RemoteItems, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DistributedCache.class);

    private final int rank;
    private final int nodes;
    private final int hops;
    private final long timeoutNanos;
    private final L3Transport transport;
    private final SlotCache<HostBuffer> hostCache;
    private static final long[] NONE = new long[0];
    /**
     * Per item this node is the contact of: the ids of the h most recent requests, newest first. Indexed by item, as
     * any node may become an item's contact when the first contact is lost.
     */
    private final long[][] candidates;
    /** Each item's home node (its contact while living), or null for {@code i mod P}. */
    private volatile IntUnaryOperator home;
    /** Ranks lost from the run: never contacts, never candidates. */
    private final boolean[] lost;
    /** The ranks still in the run, in order; an item whose contact is lost goes to one of these. */
    private volatile int[] living;
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
    private final ScheduledExecutorService timer;
    private final L3Stats stats;
    /** Serves holding an L2 pin, from the pin until the bytes are sent; see {@link #stopServing}. */
    private final AtomicInteger serving = new AtomicInteger();
    private volatile boolean servingStopped;

    /** A fetch in flight; its state moves WAITING → RECEIVING → done, or WAITING → done (miss, timeout). */
    private static final class Fetch {
        static final int WAITING = 0;
        static final int RECEIVING = 1;
        static final int DONE = 2;
        final int item;
        final HostBuffer target;
        final Callback callback;
        final long deadline;
        final AtomicInteger state = new AtomicInteger(WAITING);

        Fetch(int item, HostBuffer target, Callback callback, long deadline) {
            this.item = item;
            this.target = target;
            this.callback = callback;
            this.deadline = deadline;
        }
    }

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
        this.hops = hops;
        this.timeoutNanos = timeoutNanos;
        this.transport = transport;
        this.hostCache = hostCache;
        this.candidates = new long[items][];
        this.listedAs = new AtomicLongArray(items);
        this.lost = new boolean[nodes];
        this.living = IntStream.range(0, nodes).toArray();
        this.stats = new L3Stats(hops);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rocket-l3-timer-" + rank);
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(1, Math.min(50, TimeUnit.NANOSECONDS.toMillis(timeoutNanos) / 4));
        timer.scheduleAtFixedRate(this::expire, period, period, TimeUnit.MILLISECONDS);
        hostCache.onEvict(this::evicted);
    }

    /**
     * The contact node of an item: {@code item mod P}, or when that rank is lost, one of the living ranks chosen the
     * same way on every node.
     */
    public int contact(int item) {
        IntUnaryOperator h = home;
        int first = h == null ? item % nodes : h.applyAsInt(item);
        if (!lost[first]) {
            return first;
        }
        int[] alive = living;
        return alive[item % alive.length];
    }

    /**
     * Makes {@code homes} (item to rank, the same function on every node) the items' contacts, in place of
     * {@code i mod P}. Set before this node makes its first request; the nodes' requests reach the contacts they name,
     * so a node that has not set it yet only spreads an item's candidates over two lists, never loses a request.
     */
    public void homes(IntUnaryOperator homes) {
        this.home = homes;
    }

    /**
     * {@code rank} left the run: it is no longer anyone's contact or candidate, and every fetch still waiting for a
     * reply is given up at once (loaded locally) rather than waiting out its timeout, since its request may have been
     * on its way through the lost node. Fetches already receiving bytes end with their connection.
     */
    public void memberLost(int rank) {
        if (rank < 0 || rank >= nodes || rank == this.rank) {
            return;
        }
        synchronized (this) {
            if (lost[rank]) {
                return;
            }
            lost[rank] = true;
            living = IntStream.range(0, nodes).filter(r -> !lost[r]).toArray();
            for (int i = 0; i < candidates.length; i++) {
                long[] list = candidates[i];
                if (list != null) {
                    candidates[i] = Arrays.stream(list).filter(c -> L3Message.rankOf(c) != rank).toArray();
                }
            }
        }
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
        LOG.info("L3: rank {} lost; {} waiting fetches load locally instead", rank, cancelled);
    }

    public L3Stats stats() {
        return stats;
    }

    @Override
    public void fetch(int item, HostBuffer target, Callback callback) {
        sendDrops();
        long id = ((long) rank << L3Message.RANK_SHIFT) | nextId.getAndIncrement();
        listedAs.set(item, id);
        int contact = contact(item);
        if (contact != rank) {
            begin(id, item, target, callback);
            transport.sendControl(contact, new L3Message(L3Message.Kind.REQUEST, id, item, rank, 0, NONE));
            return;
        }
        long[] toAsk = list(item, id, rank);
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
    private void begin(long id, int item, HostBuffer target, Callback callback) {
        stats.requests.increment();
        fetching.merge(item, 1, Integer::sum);
        pending.put(id, new Fetch(item, target, callback, System.nanoTime() + timeoutNanos));
    }

    /** Handles a control message addressed to this node. */
    public void onMessage(L3Message m) {
        switch (m.kind()) {
            case REQUEST -> onRequest(m);
            case FORWARD -> onForward(m);
            case MISS -> onMiss(m);
            case DROP -> onDrop(m);
        }
    }

    /**
     * This node's L2 evicted {@code item} (called under the L2's lock): if this node is listed for it, the contact is
     * told, off the lock ({@link #sendDrops}), so it stops sending requests here that could only be passed on.
     * Without the notice a contact's list keeps naming nodes that held an item long ago, and every request for an item
     * loaded again in a later pass walks the whole stale list before its MISS.
     */
    private void evicted(int item) {
        long id = listedAs.getAndSet(item, 0);
        if (id != 0) {
            drops.add(new L3Message(L3Message.Kind.DROP, id, item, rank, 0, NONE));
        }
    }

    /**
     * Sends the eviction notices queued since the last call. Called off the L2 lock: before each fetch (an L2 miss
     * evicts to make room, so the notice leaves before the request that caused it) and on each timer tick.
     */
    private void sendDrops() {
        L3Message drop;
        while ((drop = drops.poll()) != null) {
            transport.sendControl(contact(drop.item()), drop);
        }
    }

    /** As the contact: the candidate listed with request {@code m.requestId()} no longer holds the item. */
    private void onDrop(L3Message m) {
        int index = m.item();
        if (index < 0 || index >= candidates.length) {
            return;
        }
        synchronized (this) {
            long[] list = candidates[index];
            if (list != null) {
                candidates[index] = Arrays.stream(list).filter(c -> c != m.requestId()).toArray();
            }
        }
    }

    /** As the contact: remember the requester, ask the previous requesters in order. */
    private void onRequest(L3Message m) {
        int index = m.item();
        if (index < 0 || index >= candidates.length || m.requester() < 0 || m.requester() >= nodes) {
            LOG.warn("L3: request for item {} from rank {} is out of range; ignored", index, m.requester());
            return;
        }
        long[] toAsk = list(index, m.requestId(), m.requester());
        if (toAsk.length == 0) {
            transport.sendControl(m.requester(), new L3Message(L3Message.Kind.MISS, m.requestId(), m.item(),
                    m.requester(), 0, NONE));
        } else {
            transport.sendControl(L3Message.rankOf(toAsk[0]), new L3Message(L3Message.Kind.FORWARD, m.requestId(),
                    m.item(), m.requester(), 1, toAsk));
        }
    }

    /**
     * As the contact of {@code item}: lists request {@code requestId} of {@code requester} first among its candidates
     * (at most h, a rank once) and returns the candidates to ask, newest first: the earlier list less the requester.
     */
    private long[] list(int item, long requestId, int requester) {
        long[] previous;
        synchronized (this) {
            long[] list = candidates[item];
            previous = list == null ? NONE : list;
            long[] updated = new long[Math.min(hops, previous.length + 1)];
            updated[0] = requestId;
            int k = 1;
            for (long c : previous) {
                if (k < updated.length && L3Message.rankOf(c) != requester) {
                    updated[k++] = c;
                }
            }
            candidates[item] = k == updated.length ? updated : Arrays.copyOf(updated, k);
        }
        return Arrays.stream(previous).filter(c -> L3Message.rankOf(c) != requester).toArray();
    }

    /**
     * As a candidate: serve from L2 if the item is here — readable now, or as soon as the load or fetch under way
     * here publishes it (nodes that asked for an item moments ago are usually still getting it) — else pass the
     * request on. The requester's timeout bounds the wait.
     *
     * <p>Waiting for a fetch under way is safe only for the fetch with which this node was listed as a candidate:
     * that one reached the contact before the request being served, and so only ever waits for requests that reached
     * it earlier still. Waits then follow the contact's order and cannot form a cycle. A newer fetch of this node
     * came after the request and might be waiting for the requester, so the request is passed on.
     */
    private void onForward(L3Message m) {
        // Counted before the stopped flag is read, so stopServing either sees this serve or this serve sees the flag.
        serving.incrementAndGet();
        boolean newerFetch = fetching.containsKey(m.item()) && !pending.containsKey(m.candidates()[0]);
        if (servingStopped || newerFetch || !hostCache.pinIfPresent(new Serve(m))) {
            served();
            passOn(m);
        }
    }

    /** A serve let go of its L2 pin (or never took one). */
    private void served() {
        if (serving.decrementAndGet() == 0 && servingStopped) {
            synchronized (serving) {
                serving.notifyAll();
            }
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
        servingStopped = true;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        synchronized (serving) {
            while (serving.get() > 0) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return false;
                }
                serving.wait(left);
            }
        }
        return true;
    }

    private void passOn(L3Message m) {
        stats.forwarded.increment();
        long[] rest = Arrays.copyOfRange(m.candidates(), 1, m.candidates().length);
        if (rest.length == 0) {
            transport.sendControl(m.requester(), new L3Message(L3Message.Kind.MISS, m.requestId(), m.item(),
                    m.requester(), m.hop(), NONE));
        } else {
            transport.sendControl(L3Message.rankOf(rest[0]), new L3Message(L3Message.Kind.FORWARD, m.requestId(),
                    m.item(), m.requester(), m.hop() + 1, rest));
        }
    }

    /** A fetch left {@link #pending}: its item is no longer being fetched by it. */
    private Fetch ended(Fetch fetch) {
        if (fetch != null) {
            fetching.computeIfPresent(fetch.item, (k, v) -> v == 1 ? null : v - 1);
        }
        return fetch;
    }

    private void onMiss(L3Message m) {
        Fetch fetch = ended(pending.remove(m.requestId()));
        if (fetch != null && fetch.state.compareAndSet(Fetch.WAITING, Fetch.DONE)) {
            stats.misses.increment();
            fetch.callback.missed();
        }
    }

    /**
     * The data plane has item bytes for a request: returns the buffer to read {@code length} bytes into, or null to
     * discard them (the fetch timed out, is unknown, or the item does not fit). Once a buffer is returned the fetch
     * cannot time out; the data plane must call {@link #endReceive} either way.
     */
    public ByteBuffer beginReceive(long requestId, int item, long length) {
        Fetch fetch = pending.get(requestId);
        if (fetch == null || fetch.item != item || length > fetch.target.capacity()
                || !fetch.state.compareAndSet(Fetch.WAITING, Fetch.RECEIVING)) {
            return null;
        }
        return fetch.target.raw();
    }

    /** The bytes of a request arrived ({@code ok}) or the connection broke while reading them. */
    public void endReceive(long requestId, int hop, long length, boolean ok) {
        Fetch fetch = ended(pending.remove(requestId));
        if (fetch == null || !fetch.state.compareAndSet(Fetch.RECEIVING, Fetch.DONE)) {
            return;
        }
        if (ok) {
            fetch.target.length(length);
            stats.hitsByHop.incrementAndGet(Math.min(hop, hops));
            stats.bytesReceived.add(length);
            fetch.callback.fetched();
        } else {
            stats.misses.increment();
            fetch.callback.missed();
        }
    }

    private void expire() {
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

    /**
     * Stops the timer and drops every fetch still waiting, without calling back: the run is over (no pair waits
     * for an item then) or has failed, and the pipeline that would load the items is already closed.
     */
    @Override
    public void close() {
        timer.shutdownNow();
        for (Long id : pending.keySet()) {
            Fetch fetch = ended(pending.remove(id));
            if (fetch != null) {
                fetch.state.set(Fetch.DONE);
            }
        }
    }

    /** A one-item pin on L2: sends the item once it is readable, then unpins after the bytes are written. */
    private final class Serve extends CacheRequest {
        private final L3Message request;

        Serve(L3Message request) {
            super(1);
            this.request = request;
            items(request.item());
        }

        @Override
        protected void onGranted() {
        }

        @Override
        protected void onSettled() {
            if (error(0) != null) {
                hostCache.release(this);
                served();
                passOn(request);
                return;
            }
            stats.served.increment();
            HostBuffer buffer = hostCache.buffer(slot(0));
            transport.sendData(request.requester(), request.requestId(), request.item(), request.hop(), buffer.raw(),
                    (int) buffer.length(), () -> {
                        hostCache.releaseCold(this);
                        served();
                    });
        }
    }
}
