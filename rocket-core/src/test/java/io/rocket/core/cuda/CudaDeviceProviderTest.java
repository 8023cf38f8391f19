package io.rocket.core.cuda;

import io.rocket.core.DeviceKind;
import io.rocket.core.RocketException;
import io.rocket.core.device.DeviceProvider;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.device.Devices;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The provider as the runtime finds it, and how it refuses on a machine where it cannot work. */
class CudaDeviceProviderTest {

    @Test
    void serviceLoader_findsTheCudaProvider() {
        assertThat(ServiceLoader.load(DeviceProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.kind() == DeviceKind.CUDA)).hasSize(1);
    }

    @Test
    void withoutGpu_causeIsOneClearLine_andStaysTheSame() {
        Optional<String> cause = new CudaDeviceProvider().unavailabilityCause();
        assumeTrue(cause.isPresent(), "a usable GPU is present");
        assertThat(cause.get()).isNotBlank().doesNotContain("\n").hasSizeLessThan(400)
                .containsAnyOf("CUDA driver", "GPU", "kernels");
        // The driver binding failed once; asking again must not trip over the half-initialised class.
        assertThat(new CudaDeviceProvider().unavailabilityCause()).isEqualTo(cause);
    }

    @Test
    void withoutGpu_openingFailsWithTheCause() {
        Optional<String> cause = new CudaDeviceProvider().unavailabilityCause();
        assumeTrue(cause.isPresent(), "a usable GPU is present");
        assertThatThrownBy(() -> Devices.open(DeviceSpec.parse("cuda:0")))
                .isInstanceOf(RocketException.class)
                .hasMessage("device cuda:0 unavailable: " + cause.get());
        assertThatThrownBy(() -> new CudaDeviceProvider().open(DeviceSpec.parse("cuda")))
                .isInstanceOf(RocketException.class).hasMessageContaining(cause.get());
    }

    @Test
    void withoutGpu_hostMemoryBeforeOpen_refused() {
        assertThatThrownBy(() -> new CudaDeviceProvider().hostMemory()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void ordinals_allOrListed_checkedAgainstTheGpusPresent() {
        assertThat(CudaDeviceProvider.ordinals(DeviceSpec.parse("cuda"), 3)).containsExactly(0, 1, 2);
        assertThat(CudaDeviceProvider.ordinals(DeviceSpec.parse("cuda:2,0"), 3)).containsExactly(2, 0);
        assertThatThrownBy(() -> CudaDeviceProvider.ordinals(DeviceSpec.parse("cuda:3"), 2))
                .isInstanceOf(RocketException.class).hasMessageContaining("no GPU 3").hasMessageContaining("0-1");
        assertThatThrownBy(() -> CudaDeviceProvider.ordinals(DeviceSpec.parse("cuda:1,1"), 2))
                .isInstanceOf(RocketException.class).hasMessageContaining("GPU 1 twice");
    }

    @Test
    void linkFailure_keepsTheLinkersComplaint() {
        String jcudaMessage = String.join("\n", List.of(
                "Error while loading native library \"JCudaDriver-12.6.0-linux-x86_64\"",
                "Stack trace from the attempt to load the library as a resource:",
                "java.lang.UnsatisfiedLinkError: /tmp/libJCudaDriver-12.6.0-linux-x86_64.so: libcuda.so.1: cannot "
                        + "open shared object file: No such file or directory",
                "\tat java.base/jdk.internal.loader.NativeLibraries.load(Native Method)"));
        assertThat(CudaDriver.linkFailure(new UnsatisfiedLinkError(jcudaMessage)))
                .isEqualTo("libcuda.so.1: cannot open shared object file: No such file or directory "
                        + "(is the NVIDIA driver installed?)");
        assertThat(CudaDriver.linkFailure(new UnsatisfiedLinkError("short\nstory"))).isEqualTo("short");
    }

    @Test
    void reserve_isAtLeastOneGibOrFivePercent() {
        assertThat(CudaDevice.reserve(8L << 30)).isEqualTo(1L << 30);
        assertThat(CudaDevice.reserve(80L << 30)).isEqualTo(4L << 30);
        assertThat(CudaDriver.versionText(12060)).isEqualTo("12.6");
    }
}
