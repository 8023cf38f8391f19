package io.rocket.core.cuda;

import io.rocket.core.RocketException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Packaged kernel modules: the list format, and that a build with nvcc really packages the core's kernels. */
class KernelModulesTest {

    @Test
    void parse_skipsBlankLinesAndComments() throws Exception {
        String list = "# kernels of one jar\nrocket\n\n  synthetic  \n#forensics\n";
        assertThat(KernelModules.parse(new ByteArrayInputStream(list.getBytes(StandardCharsets.UTF_8))))
                .containsExactly("rocket", "synthetic");
    }

    @Test
    void require_missingModule_saysHowToBuild() {
        assertThatThrownBy(() -> KernelModules.require("no_such_module"))
                .isInstanceOf(RocketException.class)
                .hasMessageContaining("no_such_module").hasMessageContaining("nvcc on the PATH");
    }

    @Test
    void buildWithNvcc_packagesCoreAndTestKernels() {
        assumeTrue(Nvcc.builtKernels(), "nvcc is not on the PATH: this build packages no kernels");
        assertThat(KernelModules.names()).contains("rocket", "rocket_test");
        for (String module : new String[] {"rocket", "rocket_test"}) {
            assertThat(getClass().getClassLoader().getResource("kernels/" + module + ".ptx")).isNotNull();
            assertThat(getClass().getClassLoader().getResource("kernels/" + module + ".fatbin")).isNotNull();
            assertThat(KernelModules.images(module)).hasSize(2);
        }
        // The PTX image is NUL-terminated for cuModuleLoadData.
        byte[] ptx = KernelModules.images("rocket").get(1).bytes();
        assertThat(ptx[ptx.length - 1]).isZero();
        assertThat(new String(ptx, StandardCharsets.US_ASCII)).contains(".entry rocket_occupy");
        assertThat(KernelModules.missingCause()).isEmpty();
        KernelModules.require("rocket");
    }

    @Test
    void buildWithoutNvcc_causeSaysHowToBuild() {
        assumeTrue(!Nvcc.builtKernels(), "nvcc is on the PATH");
        assertThat(KernelModules.missingCause()).hasValueSatisfying(c -> assertThat(c).contains("nvcc"));
    }
}
