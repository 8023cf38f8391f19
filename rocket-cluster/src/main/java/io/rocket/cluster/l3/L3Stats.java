package io.rocket.cluster.l3;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one node's L3 traffic: requests it made and how they ended (hit at hop k, miss, timeout), requests it
 * served for others, and data-plane bytes.
 */
public final class L3Stats {
    final LongAdder requests = new LongAdder();
    final LongAdder homeLoads = new LongAdder();
    final AtomicLongArray hitsByHop;
    final LongAdder misses = new LongAdder();
    final LongAdder timeouts = new LongAdder();
    final LongAdder served = new LongAdder();
    final LongAdder forwarded = new LongAdder();
    final LongAdder bytesReceived = new LongAdder();

    L3Stats(int hops) {
        hitsByHop = new AtomicLongArray(hops + 1);
    }

    public long requests() {
        return requests.sum();
    }

    /** Items this node loaded at once as their contact, no other node being listed for them (no request made). */
    public long homeLoads() {
        return homeLoads.sum();
    }

    /** Hits served by the k-th candidate asked (k from 1). */
    public long hitsAtHop(int hop) {
        return hop < hitsByHop.length() ? hitsByHop.get(hop) : 0;
    }

    public long hits() {
        long total = 0;
        for (int k = 0; k < hitsByHop.length(); k++) {
            total += hitsByHop.get(k);
        }
        return total;
    }

    public int hops() {
        return hitsByHop.length() - 1;
    }

    public long misses() {
        return misses.sum();
    }

    public long timeouts() {
        return timeouts.sum();
    }

    /** Items this node sent to requesters. */
    public long served() {
        return served.sum();
    }

    public long forwarded() {
        return forwarded.sum();
    }

    public long bytesReceived() {
        return bytesReceived.sum();
    }
}
