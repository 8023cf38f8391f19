package io.rocket.runtime;

import io.rocket.core.RocketException;
import io.rocket.core.device.DirectHostMemory;
import io.rocket.node.PipelineConfig;
import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A run whose fixed buffers cannot fit in the JVM's direct memory is refused once, before anything is allocated,
 * rather than failing every item that meets an allocation; a host cache larger than what is left holds what is left.
 */
class DirectMemoryCheckTest {

    private static final SyntheticApp APP = new SyntheticApp(new SyntheticApp.Config(10, 1_000_000, Cost.ZERO,
            Cost.ZERO, Cost.ZERO, 1));
    /** 2 host threads, 2 I/O threads, 4 jobs, 2 + 2 slots, 4 staging buffers. */
    private static final PipelineConfig CONFIG = new PipelineConfig(2, 2, 4, 2, 2, 4);

    @Test
    void directNodeWithCpuDevices_countsTheNodesStagingBuffersAndTwoItems_theDevicesReadInPlace() {
        // host: 4 + 2 staging buffers and 2 items; the cpu devices read the host cache in place: nothing more
        long need = (4 + 2) * 1_000_000L + 2 * 1_000_000L;
        assertThat(RunSupport.fitDirectMemory(APP, CONFIG, true, need)).isEqualTo(CONFIG);
        assertThatThrownBy(() -> RunSupport.fitDirectMemory(APP, CONFIG, true, need - 1))
                .isInstanceOf(RocketException.class)
                .hasMessage("synthetic: the run's buffers need at least 8.0 MB of direct memory (6 staging buffers "
                        + "of 1.0 MB for parsed items, 4 read buffers of 0.0 MB for input files, 2 cache items of "
                        + "1.0 MB), more than the 8.0 MB this JVM may allocate; raise -XX:MaxDirectMemorySize (by "
                        + "default the heap size, -Xmx), or size the items smaller (the application's options that "
                        + "size its buffers)");
    }

    @Test
    void aHostCacheLargerThanTheDirectMemoryLeft_holdsWhatIsLeft() {
        PipelineConfig large = new PipelineConfig(2, 2, 4, 500, 2, 4);
        PipelineConfig fitted = RunSupport.fitDirectMemory(APP, large, true,
                (6 + 40) * 1_000_000L * 10 / 9 + 1); // a tenth of direct memory stays free
        assertThat(fitted.hostSlots()).isEqualTo(40);
        assertThat(fitted.deviceSlots()).isEqualTo(2);
        assertThat(fitted.stagingBuffers()).isEqualTo(4);
    }

    @Test
    void pinnedHostWithoutCpuDevices_countsOnlyTheReadBuffers() {
        assertThat(RunSupport.fitDirectMemory(APP, CONFIG, false, 0)).isEqualTo(CONFIG);
    }

    @Test
    void maxDirectBytes_isPositive() {
        assertThat(DirectHostMemory.maxDirectBytes()).isPositive();
    }
}
