package io.rocket.node;

import io.rocket.cache.SlotMemory;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.device.Device;

/**
 * Device buffers for a byte-budget L1 cache: made by the device during the run, measured by the length their loader
 * (preprocess, or the copy from L2 or another node) recorded, and moved with the device's own copy. Only for devices
 * that {@link Device#budgetsCache budget their cache} (cpu, sim).
 */
final class DeviceSlotMemory implements SlotMemory<DeviceBuffer> {
    private final Device device;

    DeviceSlotMemory(Device device) {
        if (!device.budgetsCache()) {
            throw new IllegalArgumentException(device.name() + " cannot make or move cache buffers during the run");
        }
        this.device = device;
    }

    @Override
    public DeviceBuffer allocate(long bytes) {
        return device.allocate(bytes);
    }

    @Override
    public long length(DeviceBuffer buffer) {
        return buffer.length();
    }

    @Override
    public void copy(DeviceBuffer from, DeviceBuffer to, long length) {
        device.copyOnDevice(from, to, length);
    }
}
