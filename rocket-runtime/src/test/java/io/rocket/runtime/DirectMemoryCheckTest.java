package io.rocket.runtime;

import io.rocket.core.RocketException;
import io.rocket.core.device.CpuDevice;
import io.rocket.core.device.Device;
import io.rocket.core.device.DirectHostMemory;
import io.rocket.node.PipelineConfig;
import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A run whose fixed buffers cannot fit in the JVM's direct memory is refused once, before anything is allocated,
 * rather than failing every item that meets an allocation.
 */
class DirectMemoryCheckTest {

    private static final SyntheticApp APP = new SyntheticApp(new SyntheticApp.Config(10, 1_000_000, Cost.ZERO,
            Cost.ZERO, Cost.ZERO, 1));
    /** 2 host threads, 2 I/O threads, 4 jobs, 2 + 2 slots, 4 staging buffers. */
    private static final PipelineConfig CONFIG = new PipelineConfig(2, 2, 4, 2, 2, 4);

    @Test
    void directNodeWithCpuDevices_countsStagingBuffersAndTwoItemsPerCache() {
        List<Device> devices = List.of(new CpuDevice(0), new CpuDevice(1));
        // host: 4 + 2 staging buffers and 2 items; each cpu device: 4 staging buffers and 2 items
        long need = (4 + 2 + 4 + 4) * 1_000_000L + (2 + 2 + 2) * 1_000_000L;
        assertThatCode(() -> RunSupport.checkDirectMemory(APP, CONFIG, devices, true, need))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> RunSupport.checkDirectMemory(APP, CONFIG, devices, true, need - 1))
                .isInstanceOf(RocketException.class)
                .hasMessage("synthetic: the run's buffers need at least 20.0 MB of direct memory (14 staging buffers "
                        + "of 1.0 MB for parsed items, 4 read buffers of 0.0 MB for input files, 6 cache items of "
                        + "1.0 MB), more than the 20.0 MB this JVM may allocate; raise -XX:MaxDirectMemorySize (by "
                        + "default the heap size, -Xmx), or size the items smaller (the application's options that "
                        + "size its buffers)");
    }

    @Test
    void pinnedHostWithoutCpuDevices_countsOnlyTheReadBuffers() {
        assertThatCode(() -> RunSupport.checkDirectMemory(APP, CONFIG, List.of(), false, 0))
                .doesNotThrowAnyException();
    }

    @Test
    void maxDirectBytes_isPositive() {
        assertThat(DirectHostMemory.maxDirectBytes()).isPositive();
    }
}
