package io.rocket.cluster.l3;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;

/**
 * The contact role of the L3 level: which node is each item's contact, and, for the items this node is the contact
 * of, the list of the h requests that most recently asked for the item, newest first. A request puts its requester
 * first and is forwarded down the old list; an eviction notice (DROP) takes its listing off; a lost rank leaves
 * every list and stops being anyone's contact. The lists name requests (their ids carry the rank), so a candidate
 * knows which of its fetches it was listed with. Thread-safe: the lists change under this object's lock.
 */
final class L3Contact {
    private static final Logger LOG = LoggerFactory.getLogger(L3Contact.class);
    static final long[] NONE = new long[0];

    private final int nodes;
    private final int hops;
    private final L3Transport transport;
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

    L3Contact(int nodes, int items, int hops, L3Transport transport) {
        this.nodes = nodes;
        this.hops = hops;
        this.transport = transport;
        this.candidates = new long[items][];
        this.lost = new boolean[nodes];
        this.living = IntStream.range(0, nodes).toArray();
    }

    /** The contact of an item: its home or {@code item mod P}, or when that rank is lost, a living one. */
    int contact(int item) {
        IntUnaryOperator h = home;
        int first = h == null ? item % nodes : h.applyAsInt(item);
        if (!lost[first]) {
            return first;
        }
        int[] alive = living;
        return alive[item % alive.length];
    }

    void homes(IntUnaryOperator homes) {
        this.home = homes;
    }

    /** Takes {@code rank} off every list and out of the contacts; false when it was lost already. */
    synchronized boolean memberLost(int rank) {
        if (lost[rank]) {
            return false;
        }
        lost[rank] = true;
        living = IntStream.range(0, nodes).filter(r -> !lost[r]).toArray();
        for (int i = 0; i < candidates.length; i++) {
            long[] list = candidates[i];
            if (list != null) {
                candidates[i] = Arrays.stream(list).filter(c -> L3Message.rankOf(c) != rank).toArray();
            }
        }
        return true;
    }

    /**
     * Lists request {@code requestId} of {@code requester} first among the item's candidates (at most h, a rank
     * once) and returns the candidates to ask, newest first: the earlier list less the requester.
     */
    long[] list(int item, long requestId, int requester) {
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

    /** The item's list as it is now (a copy; for tests). */
    synchronized long[] candidates(int item) {
        long[] list = candidates[item];
        return list == null ? NONE : list.clone();
    }

    /** A REQUEST: remember the requester, ask the previous requesters in order, or answer MISS when there are none. */
    void onRequest(L3Message m) {
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

    /** A DROP: the candidate listed with request {@code m.requestId()} no longer holds the item. */
    void onDrop(L3Message m) {
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
}
