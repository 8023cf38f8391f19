package io.rocket.node;

import io.rocket.cache.SlotCache;
import io.rocket.core.DeviceBuffer;

/** A device's own cache (L1): items copied in from the node's L2 (or loaded into it), read there by the kernels. */
final class DeviceItems extends LaneItems {
    private final NodePipeline<?, ?> node;
    private final DeviceLane<?, ?> lane;
    private final SlotCache<DeviceBuffer> l1;

    DeviceItems(NodePipeline<?, ?> node, DeviceLane<?, ?> lane, SlotCache<DeviceBuffer> l1) {
        this.node = node;
        this.lane = lane;
        this.l1 = l1;
    }

    @Override
    SlotCache<DeviceBuffer> cache() {
        return l1;
    }

    @Override
    SlotCache<DeviceBuffer> deviceCache() {
        return l1;
    }

    @Override
    DeviceBuffer buffer(int slot) {
        return l1.buffer(slot);
    }

    @Override
    void load(int item, int slot) {
        ItemLoad.intoDevice(node, lane, item, slot).start();
    }

    @Override
    void used(int[] items, int n) {
        node.l2.touchAll(items, n); // L1 hits are uses too: keep L2's recency true to them
    }

    @Override
    int maximalItems() {
        return l1.maximalItems();
    }
}
