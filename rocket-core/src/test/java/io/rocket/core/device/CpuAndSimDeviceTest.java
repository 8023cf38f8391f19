package io.rocket.core.device;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.HostBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CpuAndSimDeviceTest {

    @Test
    void cpuCopies_roundTrip_preserveBytes() {
        CpuDevice device = new CpuDevice(0);
        HostBuffer host = new HostBuffer(ByteBuffer.allocateDirect(64));
        for (int k = 0; k < 64; k++) {
            host.byteBuffer().put(k, (byte) k);
        }
        DeviceBuffer onDevice = device.allocate(64);
        device.copyToDevice(host, onDevice, 40);
        HostBuffer back = new HostBuffer(ByteBuffer.allocateDirect(64));
        device.copyToHost(onDevice, back, 40);
        assertThat(onDevice.length()).isEqualTo(40);
        assertThat(back.length()).isEqualTo(40);
        for (int k = 0; k < 40; k++) {
            assertThat(back.byteBuffer().get(k)).isEqualTo((byte) k);
        }
        assertThat(back.byteBuffer().get(40)).isZero();
    }

    @Test
    void simBuffers_holdNoData_resultsZeroFilled() {
        SimDevice device = new SimDevice(0, 0);
        DeviceBuffer buffer = device.allocate(1 << 20);
        assertThatThrownBy(buffer::byteBuffer).isInstanceOf(UnsupportedOperationException.class);
        HostBuffer host = new HostBuffer(ByteBuffer.allocateDirect(16));
        host.byteBuffer().putLong(0, -1L);
        device.copyToHost(buffer, host, 8);
        assertThat(host.byteBuffer().getLong(0)).isZero();
    }

    @Test
    void simKernelContext_reportsModelledTime() {
        SimDevice device = new SimDevice(0);
        DeviceKernelContext context = device.kernelContext();
        context.begin();
        context.occupy(300_000);
        context.occupy(200_000);
        assertThat(context.end()).isEqualTo(500_000);
    }

    @Test
    void hostBuffer_lengthOutsideCapacity_rejected() {
        HostBuffer host = new HostBuffer(ByteBuffer.allocateDirect(8));
        assertThatThrownBy(() -> host.length(9)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HostBuffer(ByteBuffer.allocate(8))).isInstanceOf(IllegalArgumentException.class);
    }
}
