package io.rocket.core.device;

import io.rocket.core.DeviceKind;
import io.rocket.core.RocketException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeviceSpecTest {

    @Test
    void parse_plainKinds_oneDevice() {
        assertThat(DeviceSpec.parse("cpu")).isEqualTo(new DeviceSpec(DeviceKind.CPU, 1, List.of()));
        assertThat(DeviceSpec.parse("SIM")).isEqualTo(new DeviceSpec(DeviceKind.SIM, 1, List.of()));
    }

    @Test
    void parse_count_thatManyDevices() {
        assertThat(DeviceSpec.parse("sim:4").count()).isEqualTo(4);
        assertThat(DeviceSpec.parse("cpu:2").toString()).isEqualTo("cpu:2");
    }

    @Test
    void parse_cudaOrdinals_keepsThem() {
        assertThat(DeviceSpec.parse("cuda").count()).isEqualTo(-1);
        assertThat(DeviceSpec.parse("cuda:0,2").ordinals()).containsExactly(0, 2);
    }

    @Test
    void parse_bad_throwsNamingValue() {
        assertThatThrownBy(() -> DeviceSpec.parse("tpu")).isInstanceOf(RocketException.class).hasMessageContaining("tpu");
        assertThatThrownBy(() -> DeviceSpec.parse("cpu:0")).isInstanceOf(RocketException.class);
        assertThatThrownBy(() -> DeviceSpec.parse("cuda:x")).isInstanceOf(RocketException.class);
    }

    @Test
    void open_cpuAndSim_builtIn() {
        Devices.Opened opened = Devices.open(DeviceSpec.parse("sim:3"));
        assertThat(opened.devices()).extracting(Device::name).containsExactly("sim:0", "sim:1", "sim:2");
    }

    @Test
    void open_cudaWithoutBackend_clearError() {
        assertThatThrownBy(() -> Devices.open(DeviceSpec.parse("cuda")))
                .isInstanceOf(RocketException.class).hasMessageContaining("cuda").hasMessageContaining("unavailable");
    }
}
