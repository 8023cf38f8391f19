package io.rocket.core.cuda;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The cuFFT binding's parts that need no GPU: library choice, error names and the unavailable case. */
class CuFftTest {

    @Test
    void candidates_newestFirst_noneNewerThanTheDriver() {
        assertThat(CuFftLibrary.candidates(0, false))
                .containsExactly("libcufft.so.12", "libcufft.so.11", "libcufft.so.10", "libcufft.so");
        assertThat(CuFftLibrary.candidates(12040, false))
                .containsExactly("libcufft.so.11", "libcufft.so.10", "libcufft.so");
        assertThat(CuFftLibrary.candidates(13000, true)).containsExactly("cufft64_12", "cufft64_11", "cufft64_10");
    }

    @Test
    void unavailable_causeIsOneLineNamingTheLibrary() {
        Optional<String> cause = CuFft.unavailabilityCause();
        assumeTrue(cause.isPresent(), "cuFFT is installed");
        assertThat(cause.get()).doesNotContain("\n").contains("cufft");
        assertThat(CuFft.library()).isEmpty();
    }

    @Test
    void loadFailure_reportsABrokenLibrary_notAMissingOne() {
        assertThat(CuFftLibrary.loadFailure("Unable to load library 'libcufft.so.12':\n"
                + "libcufft.so.12: cannot open shared object file: No such file or directory\n"
                + "Native library (linux-x86-64/libcufft.so.12) not found in resource path (rocket.jar)")).isNull();
        assertThat(CuFftLibrary.loadFailure("Unable to load library 'libcufft.so.12':\n"
                + "/usr/local/cuda/lib64/libcufft.so.12: file too short\n"
                + "Native library (linux-x86-64/libcufft.so.12) not found in resource path (rocket.jar)"))
                .isEqualTo("/usr/local/cuda/lib64/libcufft.so.12: file too short");
    }

    @Test
    void resultNames_followCufftH() {
        assertThat(CuFft.resultName(0)).isEqualTo("CUFFT_SUCCESS");
        assertThat(CuFft.resultName(8)).isEqualTo("CUFFT_INVALID_SIZE");
        assertThat(CuFft.resultName(99)).isEqualTo("cufftResult 99");
    }
}
