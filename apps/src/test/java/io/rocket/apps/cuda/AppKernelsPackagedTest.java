package io.rocket.apps.cuda;

import io.rocket.testkit.Gpu;
import io.rocket.core.cuda.KernelModules;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A build with nvcc on the PATH packages the forensics and phylogenetics kernels with every entry point. */
class AppKernelsPackagedTest {

    @ParameterizedTest
    @CsvSource({
        "forensics, forensics_residual forensics_column_means forensics_zero_mean_rows forensics_noise_variance "
                + "forensics_wiener forensics_half_spectrum forensics_pattern forensics_cross_spectrum forensics_energy_partials "
                + "forensics_pce forensics_ncc_means forensics_ncc_finish_means forensics_ncc_products forensics_ncc "
                + "forensics_ncc_tile_partials forensics_ncc_tile_finish forensics_tile_cross_spectrum "
                + "forensics_tile_energy_partials forensics_tile_pce",
        "phylogenetics, phylo_fill phylo_clear_totals phylo_count phylo_chunk_counts phylo_scan phylo_write "
                + "phylo_dot phylo_distance phylo_tile_dot phylo_tile_distance"
    })
    void buildWithNvcc_packagesPtxAndFatbin(String module, String entries) throws Exception {
        assumeTrue(Gpu.kernelsBuilt(), "nvcc is not on the PATH: this build packages no kernels");
        ClassLoader loader = getClass().getClassLoader();
        assertThat(loader.getResource("kernels/" + module + ".fatbin")).isNotNull();
        try (InputStream ptx = loader.getResourceAsStream("kernels/" + module + ".ptx")) {
            assertThat(ptx).isNotNull();
            String text = new String(ptx.readAllBytes(), StandardCharsets.US_ASCII);
            for (String entry : entries.split(" ")) {
                assertThat(text).contains(".entry " + entry + "(");
            }
        }
        KernelModules.require(module);
    }
}
