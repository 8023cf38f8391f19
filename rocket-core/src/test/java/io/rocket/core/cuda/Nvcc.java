package io.rocket.core.cuda;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether this build compiled CUDA kernels: nvcc on the PATH and not skipped with -Drocket.kernels.skip=true. */
final class Nvcc {
    private Nvcc() {
    }

    static boolean builtKernels() {
        if (Boolean.getBoolean("rocket.kernels.skip")) {
            return false;
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "nvcc"))) {
                return true;
            }
        }
        return false;
    }
}
