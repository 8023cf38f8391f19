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
    void parse_cpuAll_oneDevicePerComputingCore() {
        DeviceSpec all = DeviceSpec.parse("cpu:all");
        assertThat(all.kind()).isEqualTo(DeviceKind.CPU);
        assertThat(all.count()).isEqualTo(DeviceSpec.computeCores(Runtime.getRuntime().availableProcessors()));
        assertThat(all).isEqualTo(DeviceSpec.cpuAll());
    }

    @Test
    void computeCores_everyCoreOnSmallNodes_allButOneAbove() {
        assertThat(DeviceSpec.computeCores(1)).isEqualTo(1);
        assertThat(DeviceSpec.computeCores(2)).isEqualTo(2);
        assertThat(DeviceSpec.computeCores(4)).isEqualTo(4);
        assertThat(DeviceSpec.computeCores(5)).isEqualTo(4);
        assertThat(DeviceSpec.computeCores(64)).isEqualTo(63);
    }

    @Test
    void parse_cudaOrdinals_keepsThem() {
        assertThat(DeviceSpec.parse("cuda").count()).isEqualTo(-1);
        assertThat(DeviceSpec.parse("cuda:0,2").ordinals()).containsExactly(0, 2);
    }

    @Test
    void parse_simSlowdown_keepsFactor() {
        assertThat(DeviceSpec.parse("sim@4")).isEqualTo(new DeviceSpec(DeviceKind.SIM, 1, List.of(), 4));
        assertThat(DeviceSpec.parse("sim:2@2.5").count()).isEqualTo(2);
        assertThat(DeviceSpec.parse("sim:2@2.5").slowdown()).isEqualTo(2.5);
        assertThat(DeviceSpec.parse("sim:2@4").toString()).isEqualTo("sim:2@4");
        assertThat(DeviceSpec.parse("sim").slowdown()).isEqualTo(1);
    }

    @Test
    void parse_badSlowdown_throwsOneLine() {
        assertThatThrownBy(() -> DeviceSpec.parse("cpu@4")).isInstanceOf(RocketException.class)
                .hasMessageContaining("only to sim");
        assertThatThrownBy(() -> DeviceSpec.parse("sim@0")).isInstanceOf(RocketException.class)
                .hasMessageContaining("not a number > 0");
        assertThatThrownBy(() -> DeviceSpec.parse("sim:2@x")).isInstanceOf(RocketException.class)
                .hasMessageContaining("'x'");
    }

    @Test
    void simSlowdown_multipliesModelledKernelTime() {
        Devices.Opened opened = Devices.open(DeviceSpec.parse("sim@4"));
        DeviceKernelContext context = opened.devices().get(0).kernelContext();
        context.begin();
        context.occupy(100_000);
        assertThat(context.end()).isEqualTo(400_000);
        assertThat(opened.devices().get(0).info()).containsEntry("slowdown", 4.0);
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
