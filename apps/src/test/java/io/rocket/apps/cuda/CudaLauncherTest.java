package io.rocket.apps.cuda;

import io.rocket.testkit.Gpu;
import io.rocket.apps.Launcher;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code --device cuda} where it cannot work: one line naming the reason, exit 1, no stack trace. */
class CudaLauncherTest {

    @Test
    void synthetic_cudaUnavailable_oneLineErrorWithTheCause() {
        assumeTrue(Gpu.UNAVAILABLE.isPresent(), "a GPU is usable here");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Launcher.execute(new String[] {"synthetic", "--items", "5", "--device", "cuda"},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).isEqualTo(1);
        assertThat(err.toString().strip())
                .isEqualTo("rocket: error: device cuda unavailable: " + Gpu.UNAVAILABLE.get());
    }

    @Test
    void badOrdinalList_isACommandLineError() {
        StringWriter err = new StringWriter();
        int code = Launcher.execute(new String[] {"synthetic", "--items", "5", "--device", "cuda:x"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("cuda:x").doesNotContain("\tat ");
    }
}
