package io.rocket.core.device;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.HostBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Buffers handed to application code start at position 0 with the limit of the step (capacity to fill, length to
 * read), little-endian, whatever the previous user did to them; and what application code does to its view never
 * reaches the runtime's copies.
 */
class BufferHandOverTest {

    @Test
    void hostBuffer_handOver_undoesWhatThePreviousUserLeft() {
        HostBuffer host = new HostBuffer(ByteBuffer.allocateDirect(32));
        host.handOverForWriting();
        host.byteBuffer().putInt(7).putLong(8).flip();
        host.byteBuffer().order(ByteOrder.BIG_ENDIAN).mark();
        host.length(12);

        host.handOverForWriting();
        ByteBuffer view = host.byteBuffer();
        assertThat(view.position()).isZero();
        assertThat(view.limit()).isEqualTo(32);
        assertThat(view.order()).isEqualTo(ByteOrder.LITTLE_ENDIAN);
        assertThat(host.length()).isZero();
        view.putInt(5).putInt(6);
        host.length(view.position());

        host.byteBuffer().position(3);
        host.handOverForReading();
        assertThat(view.position()).isZero();
        assertThat(view.limit()).isEqualTo(8);
        assertThat(view.getInt()).isEqualTo(5);
        assertThat(view.getInt()).isEqualTo(6);
        assertThat(view.hasRemaining()).isFalse();
        assertThat(host.byteBuffer()).as("one view per buffer, not one per call").isSameAs(view);
    }

    @Test
    void cpuBuffer_handOver_undoesWhatThePreviousKernelLeft() {
        DeviceBuffer buffer = new CpuDevice(0).allocate(24);
        buffer.byteBuffer().putLong(1).putLong(2).flip();
        buffer.length(16);

        buffer.handOverForReading();
        assertThat(buffer.byteBuffer().position()).isZero();
        assertThat(buffer.byteBuffer().limit()).isEqualTo(16);
        assertThat(buffer.byteBuffer().getLong()).isEqualTo(1);

        buffer.handOverForWriting();
        assertThat(buffer.byteBuffer().position()).isZero();
        assertThat(buffer.byteBuffer().limit()).isEqualTo(24);
        assertThat(buffer.length()).isZero();
    }

    @Test
    void copies_ignoreTheApplicationsView() {
        CpuDevice device = new CpuDevice(0);
        HostBuffer host = new HostBuffer(ByteBuffer.allocateDirect(64));
        for (int k = 0; k < 64; k++) {
            host.raw().put(k, (byte) k);
        }
        DeviceBuffer onDevice = device.allocate(64);
        // Views left as a careless application might leave them: exhausted, shrunk, big-endian.
        host.byteBuffer().position(64);
        onDevice.byteBuffer().limit(0);
        onDevice.byteBuffer().order(ByteOrder.BIG_ENDIAN);
        HostBuffer back = new HostBuffer(ByteBuffer.allocateDirect(64));
        back.byteBuffer().limit(1);

        device.copyToDevice(host, onDevice, 40);
        device.copyToHost(onDevice, back, 40);

        assertThat(back.length()).isEqualTo(40);
        for (int k = 0; k < 40; k++) {
            assertThat(back.raw().get(k)).isEqualTo((byte) k);
        }
        assertThat(host.raw().position()).isZero();
        assertThat(host.raw().limit()).isEqualTo(64);
    }

    @Test
    void simBuffers_handOverWithoutAView() {
        DeviceBuffer buffer = new SimDevice(0, 0).allocate(16);
        buffer.length(8);
        buffer.handOverForReading();
        buffer.handOverForWriting();
        assertThat(buffer.length()).isZero();
        assertThatThrownBy(buffer::byteBuffer).isInstanceOf(UnsupportedOperationException.class);
    }
}
