package io.rocket.cluster.l3;

import io.rocket.cache.CacheRequest;
import io.rocket.cache.SlotCache;
import io.rocket.core.HostBuffer;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The candidate role of the L3 level: a FORWARD asks this node for an item on a requester's behalf. It serves the
 * item from L2 if it is there — readable now, or as soon as the load or fetch under way here publishes it (nodes
 * that asked for an item moments ago are usually still getting it) — sending it straight to the requester over the
 * data plane, else it passes the request to the next candidate, and the last answers MISS. The requester's timeout
 * bounds the wait.
 *
 * <p>Waiting for a fetch under way is safe only for the fetch with which this node was listed as a candidate: that
 * one reached the contact before the request being served, and so only ever waits for requests that reached it
 * earlier still. Waits then follow the contact's order and cannot form a cycle. A newer fetch of this node came
 * after the request and might be waiting for the requester, so the request is passed on.
 */
final class L3Candidate {
    private final L3Transport transport;
    private final SlotCache<HostBuffer> hostCache;
    private final L3Requester requester;
    private final L3Stats stats;
    /** Serves holding an L2 pin, from the pin until the bytes are sent; see {@link #stopServing}. */
    private final AtomicInteger serving = new AtomicInteger();
    private volatile boolean servingStopped;

    L3Candidate(L3Transport transport, SlotCache<HostBuffer> hostCache, L3Requester requester, L3Stats stats) {
        this.transport = transport;
        this.hostCache = hostCache;
        this.requester = requester;
        this.stats = stats;
    }

    void onForward(L3Message m) {
        // Counted before the stopped flag is read, so stopServing either sees this serve or this serve sees the flag.
        serving.incrementAndGet();
        boolean newerFetch = requester.fetchingNewerThan(m.item(), m.candidates()[0]);
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

    /** See {@link DistributedCache#stopServing}. */
    boolean stopServing(long timeoutMillis) throws InterruptedException {
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
                    m.requester(), m.hop(), L3Contact.NONE));
        } else {
            transport.sendControl(L3Message.rankOf(rest[0]), new L3Message(L3Message.Kind.FORWARD, m.requestId(),
                    m.item(), m.requester(), m.hop() + 1, rest));
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
