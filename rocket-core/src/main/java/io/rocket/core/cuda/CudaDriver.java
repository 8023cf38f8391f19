package io.rocket.core.cuda;

import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

import java.util.Optional;

/**
 * Loads the CUDA driver binding once and says whether it can be used. JCuda's native library links against
 * {@code libcuda.so.1}; on a machine without the NVIDIA driver loading it throws {@link UnsatisfiedLinkError} (and
 * every later touch of the class a {@link NoClassDefFoundError}), so the first attempt is made here, in one place,
 * and its outcome — a one-line cause or the device count — is remembered for the life of the JVM.
 */
final class CudaDriver {
    private static Probe probe;

    private CudaDriver() {
    }

    /** The outcome of loading and initialising the driver. */
    record Probe(String cause, int deviceCount, int driverVersion) {
    }

    /** Empty when the driver loaded and sees at least one GPU, else why not, in one line. */
    static Optional<String> unavailabilityCause() {
        return Optional.ofNullable(probe().cause());
    }

    static synchronized Probe probe() {
        if (probe == null) {
            probe = load();
        }
        return probe;
    }

    private static Probe load() {
        try {
            int result = JCudaDriver.cuInit(0);
            if (result != CUresult.CUDA_SUCCESS) {
                return failed(initFailure(result));
            }
            int[] count = new int[1];
            result = JCudaDriver.cuDeviceGetCount(count);
            if (result != CUresult.CUDA_SUCCESS) {
                return failed("cuDeviceGetCount failed: " + CUresult.stringFor(result));
            }
            if (count[0] == 0) {
                String visible = System.getenv("CUDA_VISIBLE_DEVICES");
                return failed("no CUDA GPU is visible" + (visible == null ? "" : " (CUDA_VISIBLE_DEVICES=" + visible + ")"));
            }
            int[] version = new int[1];
            JCudaDriver.cuDriverGetVersion(version);
            return new Probe(null, count[0], version[0]);
        } catch (UnsatisfiedLinkError e) {
            return failed("cannot load the CUDA driver: " + linkFailure(e));
        } catch (Throwable t) {
            // NoClassDefFoundError, SecurityException, an I/O error unpacking the native library: all mean "not here".
            return failed("cannot load the CUDA driver binding: " + firstLine(String.valueOf(t)));
        }
    }

    private static Probe failed(String cause) {
        return new Probe(cause, 0, 0);
    }

    private static String initFailure(int result) {
        String name = CUresult.stringFor(result);
        if (result == CUresult.CUDA_ERROR_NO_DEVICE) {
            return "no CUDA-capable GPU found (cuInit: " + name + ")";
        }
        if (result == CUresult.CUDA_ERROR_SYSTEM_DRIVER_MISMATCH) {
            return "the NVIDIA driver library and kernel module differ in version; reboot or reinstall the driver "
                    + "(cuInit: " + name + ")";
        }
        return "cuInit failed: " + name;
    }

    /**
     * JCuda's message spans many lines (one stack trace per way it tried); the useful part is the dynamic linker's
     * complaint, e.g. {@code libcuda.so.1: cannot open shared object file}.
     */
    static String linkFailure(UnsatisfiedLinkError e) {
        String message = String.valueOf(e.getMessage());
        for (String line : message.split("\\R")) {
            int so = line.indexOf(".so: ");
            if (line.startsWith("java.lang.UnsatisfiedLinkError: ") && so >= 0) {
                String reason = line.substring(so + ".so: ".length()).trim();
                return reason.contains("libcuda.so") ? reason + " (is the NVIDIA driver installed?)" : reason;
            }
        }
        return firstLine(message);
    }

    static String firstLine(String text) {
        String line = text.strip().lines().findFirst().orElse("");
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }

    /** Throws a {@link CudaException} when a driver call did not succeed. */
    static void check(int result, String operation) {
        if (result != CUresult.CUDA_SUCCESS) {
            throw new CudaException(operation, result, CUresult.stringFor(result));
        }
    }

    /** {@code 13000} → {@code "13.0"}. */
    static String versionText(int version) {
        return version / 1000 + "." + (version % 1000) / 10;
    }
}
