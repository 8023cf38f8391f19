package io.rocket.node;

import io.rocket.cache.SlotCache;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.HostBuffer;
import io.rocket.core.device.Device;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The node's host cache (L2) read in place, for a device whose memory is the host's (cpu): a request of the lane pins
 * its items in L2 for as long as its kernels read them (a pinned entry is never evicted), loads preprocess straight
 * into the L2 slot, and nothing is copied. The lane keeps a device view of each L2 buffer and staging buffer it has
 * used (its kernels move their views' positions, so views are not shared between lanes), made again when the cache
 * gives a slot another buffer.
 */
final class HostItems extends LaneItems {
    private final NodePipeline<?, ?> node;
    private final DeviceLane<?, ?> lane;
    private final Device device;
    private final int share;
    /** Per L2 slot: the buffer the view was made for, and the view. Used on the lane's kernel thread only. */
    private final HostBuffer[] viewed;
    private final DeviceBuffer[] views;
    /** Views of the node's staging buffers (parsed items), which a fixed pool reuses. Kernel thread only. */
    private final Map<HostBuffer, DeviceBuffer> stagingViews = new IdentityHashMap<>();

    /**
     * @param share the most items one request may pin: a share of L2 (see {@link #shareOf})
     */
    HostItems(NodePipeline<?, ?> node, DeviceLane<?, ?> lane, int share) {
        this.node = node;
        this.lane = lane;
        this.device = lane.device;
        this.share = share;
        this.viewed = new HostBuffer[node.l2.slots()];
        this.views = new DeviceBuffer[node.l2.slots()];
    }

    /**
     * The items one request of a lane reading {@code l2} in place may pin: an eighth of what L2 holds at once, split
     * over the node's lanes. Tasks in flight (two per lane) and pair jobs then pin at most about half of L2 together;
     * the rest keeps the band's rows that the next tasks need.
     */
    static int shareOf(SlotCache<HostBuffer> l2, int lanes) {
        return Math.max(2, l2.maximalItems() / (8 * Math.max(1, lanes)));
    }

    @Override
    SlotCache<HostBuffer> cache() {
        return node.l2;
    }

    @Override
    SlotCache<DeviceBuffer> deviceCache() {
        return null;
    }

    @Override
    DeviceBuffer buffer(int slot) {
        HostBuffer host = node.l2.buffer(slot);
        DeviceBuffer view = views[slot];
        if (viewed[slot] != host) {
            view = device.view(host);
            views[slot] = view;
            viewed[slot] = host;
        }
        view.length(host.length());
        return view;
    }

    /** A view of a staging buffer (a parsed item), for preprocess to read. Kernel thread only. */
    DeviceBuffer staged(HostBuffer parsed) {
        DeviceBuffer view = stagingViews.computeIfAbsent(parsed, device::view);
        view.length(parsed.length());
        return view;
    }

    @Override
    void load(int item, int slot) {
        ItemLoad.inPlace(node, lane, this, item, slot).start();
    }

    @Override
    void used(int[] items, int n) {
        // the L2 counted them itself
    }

    @Override
    int maximalItems() {
        return share;
    }
}
