package io.rocket.node;

import io.rocket.cache.SlotMemory;
import io.rocket.core.HostBuffer;
import io.rocket.core.device.HostMemory;

/**
 * Host buffers for a byte-budget L2 cache: made by the node's host memory, measured by the length their loader
 * recorded, and copied with one bulk put (no per-item allocation beyond the buffer itself).
 */
final class HostSlotMemory implements SlotMemory<HostBuffer> {
    private final HostMemory memory;

    HostSlotMemory(HostMemory memory) {
        this.memory = memory;
    }

    @Override
    public HostBuffer allocate(long bytes) {
        return memory.allocate(bytes);
    }

    @Override
    public long length(HostBuffer buffer) {
        return buffer.length();
    }

    @Override
    public void copy(HostBuffer from, HostBuffer to, long length) {
        to.raw().put(0, from.raw(), 0, (int) length);
        to.length(length);
    }
}
