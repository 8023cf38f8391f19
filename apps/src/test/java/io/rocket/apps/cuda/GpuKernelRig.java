package io.rocket.apps.cuda;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.HostBuffer;
import io.rocket.core.device.Device;
import io.rocket.core.device.DeviceKernelContext;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.device.Devices;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Test helper: GPU 0 opened outside the runtime, to run an application's cuda kernels step by step on buffers a test
 * fills and reads back, as the runtime would (one step between {@code begin} and {@code end} of the kernel context).
 */
final class GpuKernelRig implements AutoCloseable {
    final Devices.Opened opened;
    final Device device;
    final DeviceKernelContext context;

    GpuKernelRig() {
        opened = Devices.open(DeviceSpec.parse("cuda:0"));
        device = opened.devices().get(0);
        context = device.kernelContext();
    }

    /** New device memory holding the remaining bytes of {@code content} (length set to them). */
    DeviceBuffer upload(ByteBuffer content, long capacity) {
        int bytes = content.remaining();
        DeviceBuffer target = device.allocate(Math.max(capacity, bytes));
        HostBuffer host = opened.hostMemory().allocate(Math.max(1, bytes));
        ByteBuffer view = host.byteBuffer().duplicate().clear();
        view.put(content.duplicate());
        device.copyToDevice(host, target, bytes);
        return target;
    }

    /** The first {@code bytes} bytes of {@code source}, little-endian, in a heap buffer. */
    ByteBuffer download(DeviceBuffer source, long bytes) {
        HostBuffer host = opened.hostMemory().allocate(Math.max(1, bytes));
        device.copyToHost(source, host, bytes);
        ByteBuffer copy = ByteBuffer.allocate((int) bytes).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer view = host.byteBuffer().duplicate().clear().limit((int) bytes);
        copy.put(view).flip();
        return copy;
    }

    @Override
    public void close() {
        opened.devices().forEach(Device::close);
        opened.hostMemory().close();
    }
}
