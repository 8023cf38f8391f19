package io.rocket.core.cuda;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.HostBuffer;
import io.rocket.core.device.Device;
import io.rocket.core.device.DeviceKernelContext;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.device.Devices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The cuda device on a machine with a GPU: device facts, pinned L2 ↔ device L1 copies, kernel launches with every
 * argument type, the pipeline's one-thread-per-resource use, and kernel timing. Skipped (not failed) elsewhere.
 */
@Tag("gpu")
class CudaDeviceGpuTest {
    private static final Optional<String> NO_GPU = new CudaDeviceProvider().unavailabilityCause();
    private static Devices.Opened opened;

    /** Per test, so each one is reported as skipped without a GPU; the GPUs are opened once. */
    @BeforeEach
    void open() {
        assumeTrue(NO_GPU.isEmpty(), () -> "no usable GPU: " + NO_GPU.orElse(""));
        if (opened == null) {
            opened = Devices.open(DeviceSpec.parse("cuda"));
        }
    }

    @AfterAll
    static void close() {
        if (opened != null) {
            opened.devices().forEach(Device::close);
            opened.hostMemory().close();
            opened = null;
        }
    }

    @Test
    void info_namesProductMemoryMultiprocessorsAndComputeCapability() {
        for (Device device : opened.devices()) {
            Map<String, Object> info = device.info();
            assertThat(device.name()).startsWith("cuda:");
            assertThat(info).containsKeys("product", "total_memory_bytes", "multiprocessors", "compute_capability");
            assertThat((Long) info.get("total_memory_bytes")).isPositive();
            assertThat((Integer) info.get("multiprocessors")).isPositive();
            assertThat((String) info.get("compute_capability")).matches("\\d+\\.\\d+");
            long cache = device.defaultCacheBytes();
            assertThat(cache).isPositive().isLessThan((Long) info.get("total_memory_bytes"));
        }
    }

    @Test
    void pinnedHostSlot_roundTripsThroughDeviceSlot() {
        for (Device device : opened.devices()) {
            for (int bytes : new int[] {1, 4097, 3 << 20}) {
                HostBuffer l2 = opened.hostMemory().allocate(bytes + 16L);
                HostBuffer back = opened.hostMemory().allocate(bytes + 16L);
                for (int k = 0; k < bytes + 16; k++) {
                    l2.raw().put(k, (byte) (k * 31 + bytes));
                    back.raw().put(k, (byte) 0x5a);
                }
                DeviceBuffer l1 = device.allocate(bytes + 16L);
                device.copyToDevice(l2, l1, bytes);
                device.copyToHost(l1, back, bytes);
                assertThat(l1.length()).isEqualTo(bytes);
                assertThat(back.length()).isEqualTo(bytes);
                assertThat(back.raw().slice(0, bytes)).isEqualTo(l2.raw().slice(0, bytes));
                assertThat(back.raw().get(bytes)).as("bytes past the copy untouched").isEqualTo((byte) 0x5a);
            }
        }
    }

    @Test
    void copyLongerThanEitherBuffer_refusedBeforeTheDriverSeesIt() {
        Device device = opened.devices().get(0);
        HostBuffer host = opened.hostMemory().allocate(64);
        DeviceBuffer small = device.allocate(32);
        assertThatThrownBy(() -> device.copyToDevice(host, small, 64)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not fit");
        assertThatThrownBy(() -> device.copyToHost(small, host, 33)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void launch_everyArgumentType_arrivesIntact() {
        Device device = opened.devices().get(0);
        DeviceBuffer out = device.allocate(32);
        HostBuffer host = opened.hostMemory().allocate(32);
        DeviceKernelContext context = device.kernelContext();
        CudaKernelContext cuda = CudaKernelContext.of(context);

        context.begin();
        cuda.launch("rocket_test_args", 1, 32, -123456, 0x1234_5678_9abc_def0L, 1.25f, Math.PI, out);
        context.end();
        device.copyToHost(out, host, 32);
        ByteBuffer b = host.byteBuffer();
        assertThat(b.getInt(0)).isEqualTo(-123456);
        assertThat(b.getLong(8)).isEqualTo(0x1234_5678_9abc_def0L);
        assertThat(b.getFloat(16)).isEqualTo(1.25f);
        assertThat(b.getDouble(24)).isEqualTo(Math.PI);

        context.begin();
        cuda.kernel("rocket_test_args").grid(1).block(1).arg(7).arg(-8L).arg(-0.5f).arg(1e300).arg(out).launch();
        context.end();
        device.copyToHost(out, host, 32);
        assertThat(b.getInt(0)).isEqualTo(7);
        assertThat(b.getLong(8)).isEqualTo(-8L);
        assertThat(b.getFloat(16)).isEqualTo(-0.5f);
        assertThat(b.getDouble(24)).isEqualTo(1e300);
    }

    @Test
    void copiesAndKernel_onThreeThreads_likeThePipeline() throws Exception {
        Device device = opened.devices().get(0);
        int n = 100_000;
        HostBuffer input = opened.hostMemory().allocate(4L * n);
        HostBuffer output = opened.hostMemory().allocate(4L * n);
        for (int k = 0; k < n; k++) {
            input.raw().putInt(4 * k, k);
        }
        DeviceBuffer in = device.allocate(4L * n);
        DeviceBuffer out = device.allocate(4L * n);
        ExecutorService h2d = Executors.newSingleThreadExecutor();
        ExecutorService kernel = Executors.newSingleThreadExecutor();
        ExecutorService d2h = Executors.newSingleThreadExecutor();
        try {
            h2d.submit(() -> device.copyToDevice(input, in, 4L * n)).get();
            long nanos = kernel.submit(() -> {
                DeviceKernelContext context = device.kernelContext();
                context.begin();
                CudaKernelContext.of(context).launch("rocket_test_add", 64, 256, in, out, n, 1000);
                return context.end();
            }).get();
            d2h.submit(() -> device.copyToHost(out, output, 4L * n)).get();
            assertThat(nanos).isPositive();
        } finally {
            h2d.shutdown();
            kernel.shutdown();
            d2h.shutdown();
        }
        for (int k = 0; k < n; k++) {
            assertThat(output.raw().getInt(4 * k)).isEqualTo(k + 1000);
        }
    }

    @Test
    void readDoubles_seesTheKernelQueuedBeforeIt_andChecksItsRange() {
        Device device = opened.devices().get(0);
        DeviceBuffer out = device.allocate(32);
        CudaKernelContext cuda = CudaKernelContext.of(device.kernelContext());
        cuda.kernel("rocket_test_args").grid(1).block(1).arg(1).arg(2L).arg(3f).arg(-2.5e-300).arg(out).launch();
        double[] values = new double[4];
        cuda.readDoubles(out, values, 4);
        assertThat(values[3]).isEqualTo(-2.5e-300);
        assertThatThrownBy(() -> cuda.readDoubles(out, values, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> cuda.readDoubles(out, new double[8], 5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void occupy_keepsTheGpuBusyForAtLeastTheModelledTime() {
        DeviceKernelContext context = opened.devices().get(0).kernelContext();
        context.begin();
        context.occupy(2_000_000);
        assertThat(context.end()).isGreaterThanOrEqualTo(1_900_000);
    }

    @Test
    void overlappedSteps_twoInFlight_eachReportsItsOwnKernelTime() {
        DeviceKernelContext context = opened.devices().get(0).kernelContext();
        DeviceKernelContext.OverlappedStep first = context.newOverlappedStep();
        DeviceKernelContext.OverlappedStep second = context.newOverlappedStep();
        assertThat(first).isNotNull();
        long before = System.nanoTime();
        first.begin();
        context.occupy(20_000_000);
        first.end();
        second.begin();
        context.occupy(10_000_000);
        second.end();
        long launched = System.nanoTime() - before;
        long secondTime = second.await();
        long firstTime = first.await();
        assertThat(launched).as("launching must not wait for the first kernel").isLessThan(firstTime);
        assertThat(firstTime).isBetween(19_000_000L, 25_000_000L);
        assertThat(secondTime).as("the second kernel's own time, not the queueing behind the first")
                .isBetween(9_500_000L, 15_000_000L);
    }

    @Test
    void unknownKernel_namedInTheError() {
        CudaKernelContext cuda = CudaKernelContext.of(opened.devices().get(0).kernelContext());
        assertThatThrownBy(() -> cuda.launch("no_such_kernel", 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no_such_kernel")
                .hasMessageContaining("rocket");
    }

    @Test
    void bufferOfAnotherGpu_refused() {
        assumeTrue(opened.devices().size() > 1, "one GPU only");
        DeviceBuffer onSecond = opened.devices().get(1).allocate(8);
        CudaKernelContext first = CudaKernelContext.of(opened.devices().get(0).kernelContext());
        assertThatThrownBy(() -> first.launch("rocket_test_add", 1, 1, onSecond, onSecond, 1, 1))
                .hasMessageContaining("another GPU");
    }
}
