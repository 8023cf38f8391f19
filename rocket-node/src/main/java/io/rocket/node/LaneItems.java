package io.rocket.node;

import io.rocket.cache.CacheRequest;
import io.rocket.cache.Grant;
import io.rocket.cache.SlotCache;
import io.rocket.core.DeviceBuffer;

/**
 * Where a device lane's compares find their items, pinned by a {@link CacheRequest} (a pair job's two items, a
 * tile's many) while they are read: the device's own cache (L1), filled by copies from the node's host cache
 * (L2), on devices with memory of their own ({@link DeviceItems}); or the node's L2 itself, read in place, on devices
 * whose memory is the host's ({@link HostItems}: no second buffer, no copy, one memory budget).
 */
abstract class LaneItems {
    /** The cache the lane's requests pin their items in. */
    abstract SlotCache<?> cache();

    /** Asks for a request's items; see {@link SlotCache#acquire}. */
    final void acquire(CacheRequest request) {
        cache().acquire(request);
    }

    /** Releases a request's items, counting {@code moreHits} lookups beyond one per item; see {@link SlotCache}. */
    final void release(CacheRequest request, long moreHits) {
        cache().release(request, moreHits);
    }

    final void release(CacheRequest request) {
        cache().release(request);
    }

    /** The item in a slot the lane's request holds, for a kernel of the lane. Only on the lane's kernel thread. */
    abstract DeviceBuffer buffer(int slot);

    /** Starts filling a slot a request of the lane was granted {@link io.rocket.cache.Grant#LOAD} for. */
    abstract void load(int item, int slot);

    /** Items a request found readable when it was granted: uses the levels below must hear of, if any. */
    abstract void used(int[] items, int n);

    /**
     * What a request of the lane does once granted, on the granting thread: the items the lane lacks start loading,
     * the ones it holds count as uses in the levels below ({@code hits}: scratch of at least the request's size).
     */
    final void granted(CacheRequest request, int[] hits) {
        int readable = 0;
        for (int p = 0; p < request.count(); p++) {
            if (request.grant(p) == Grant.LOAD) {
                load(request.item(p), request.slot(p));
            } else if (request.grant(p) == Grant.READY) {
                hits[readable++] = request.item(p);
            }
        }
        if (readable > 0) {
            used(hits, readable);
        }
    }

    /**
     * The most items one request of the lane may pin: the whole L1 of a device, or, read in place, a share of the L2
     * that leaves the rest to the band's rows and the other lanes' requests.
     */
    abstract int maximalItems();

    /** The lane's own cache (L1), or null when it reads the L2 in place. */
    abstract SlotCache<DeviceBuffer> deviceCache();
}
