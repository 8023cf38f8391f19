package io.rocket.testkit;

import io.rocket.core.cuda.CudaDeviceProvider;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** What the apps' GPU tests need to know about this machine and build. */
public final class Gpu {
    /** Why the cuda device cannot be used here, or empty. Computed once. */
    public static final Optional<String> UNAVAILABLE = new CudaDeviceProvider().unavailabilityCause();

    private Gpu() {
    }

    /** Skips the calling test (reported as skipped) when no GPU is usable. */
    public static void assumePresent() {
        assumeTrue(UNAVAILABLE.isEmpty(), () -> "no usable GPU: " + UNAVAILABLE.orElse(""));
    }

    /** Whether this build compiled CUDA kernels: nvcc on the PATH and not skipped with -Drocket.kernels.skip. */
    public static boolean kernelsBuilt() {
        if (Boolean.getBoolean("rocket.kernels.skip")) {
            return false;
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "nvcc"))) {
                    return true;
                }
            }
        }
        return false;
    }
}
