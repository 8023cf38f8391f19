package io.rocket.cache;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The requests waiting on each slot of a {@link SlotCache} while its item is written, each with the position in the
 * request that the slot fills. Taken off a slot under the cache's lock and settled after it is released, so a
 * request's callback may call back into the cache. Not thread-safe: the cache calls it under its lock.
 */
final class SlotWaiters {
    private final List<List<CacheRequest>> requests = new ArrayList<>();
    private final List<int[]> positions = new ArrayList<>();

    SlotWaiters(int slots) {
        for (int s = 0; s < slots; s++) {
            requests.add(new ArrayList<>(4));
            positions.add(new int[4]);
        }
    }

    /** {@code request} waits for {@code slot}, which fills its {@code position}. */
    void add(int slot, CacheRequest request, int position) {
        List<CacheRequest> list = requests.get(slot);
        int[] at = positions.get(slot);
        if (list.size() == at.length) {
            at = Arrays.copyOf(at, at.length * 2);
            positions.set(slot, at);
        }
        at[list.size()] = position;
        list.add(request);
    }

    boolean isEmpty(int slot) {
        return requests.get(slot).isEmpty();
    }

    /** Removes the slot's waiters; settle them with {@link Taken#settle} once the cache's lock is released. */
    Taken take(int slot) {
        List<CacheRequest> list = requests.get(slot);
        CacheRequest[] taken = list.toArray(new CacheRequest[0]);
        int[] at = Arrays.copyOf(positions.get(slot), taken.length);
        list.clear();
        return new Taken(taken, at);
    }

    /** The waiters taken off a slot. */
    record Taken(CacheRequest[] requests, int[] positions) {
        /** Settles each waiter's position: readable ({@code error} null) or failed. */
        void settle(Throwable error) {
            for (int k = 0; k < requests.length; k++) {
                requests[k].settle(positions[k], error);
            }
        }
    }
}
