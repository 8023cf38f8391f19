package io.rocket.apps.bench;

import io.rocket.core.device.DeviceSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The copy benchmark runs through the ordinary device interface, so it works (and is checked) on cpu devices. */
class CopyBandwidthTest {

    @Test
    void measure_cpuDevices_reportsEachDevice() {
        List<CopyBandwidth.Result> results = CopyBandwidth.measure(DeviceSpec.parse("cpu:2"), 1 << 20, 2);
        assertThat(results).extracting(CopyBandwidth.Result::device).containsExactly("cpu:0", "cpu:1");
        assertThat(results).allSatisfy(r -> {
            assertThat(r.toDeviceMean()).isPositive();
            assertThat(r.toHostBest()).isGreaterThanOrEqualTo(r.toHostMean());
        });
        assertThat(results.get(0).toString()).contains("host-to-device").contains("GB/s");
    }
}
