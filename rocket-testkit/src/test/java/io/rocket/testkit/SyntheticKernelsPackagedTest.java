package io.rocket.testkit;

import io.rocket.core.cuda.KernelModules;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A build with nvcc on the PATH packages the synthetic kernels as class-path resources. */
class SyntheticKernelsPackagedTest {

    @Test
    void buildWithNvcc_packagesSyntheticPtxAndFatbin() throws Exception {
        assumeTrue(Gpu.kernelsBuilt(), "nvcc is not on the PATH: this build packages no kernels");
        ClassLoader loader = getClass().getClassLoader();
        assertThat(loader.getResource("kernels/synthetic.fatbin")).isNotNull();
        try (InputStream ptx = loader.getResourceAsStream("kernels/synthetic.ptx")) {
            assertThat(ptx).isNotNull();
            String text = new String(ptx.readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(text).contains(".entry synthetic_preprocess").contains(".entry synthetic_compare");
        }
        KernelModules.require("synthetic");
    }
}
