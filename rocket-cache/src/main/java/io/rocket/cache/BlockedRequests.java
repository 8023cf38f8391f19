package io.rocket.cache;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.function.Predicate;

/**
 * The requests a {@link SlotCache} could not grant yet, in arrival order: a request is granted only after every one
 * before it (no starvation). Granted under the cache's lock ({@link #grant}), told after it is released
 * ({@link #settle}), so a request's callback may call back into the cache. Not thread-safe: the cache calls it
 * under its lock.
 */
final class BlockedRequests {
    private final ArrayDeque<CacheRequest> queue = new ArrayDeque<>();
    /** The cache's attempt to pin every item of a request, or nothing. */
    private final Predicate<CacheRequest> tryGrant;

    BlockedRequests(Predicate<CacheRequest> tryGrant) {
        this.tryGrant = tryGrant;
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    int size() {
        return queue.size();
    }

    /** The request waits behind those blocked before it. */
    void add(CacheRequest request) {
        queue.addLast(request);
    }

    /** Under the lock: grants blocked requests in order while they fit; the granted ones, or null for none. */
    ArrayList<CacheRequest> grant() {
        ArrayList<CacheRequest> granted = null;
        CacheRequest next;
        while ((next = queue.peekFirst()) != null && tryGrant.test(next)) {
            queue.pollFirst();
            if (granted == null) {
                granted = new ArrayList<>(4);
            }
            granted.add(next);
        }
        return granted;
    }

    /** After the lock: tells requests granted by {@link #grant}. */
    static void settle(ArrayList<CacheRequest> granted) {
        if (granted != null) {
            for (CacheRequest r : granted) {
                r.onGranted();
                r.settleOne();
            }
        }
    }
}
