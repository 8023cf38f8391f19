package io.rocket.core.cuda;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The system cuFFT library, bound with JNA direct mapping (JCuda 12 ships no cuFFT): the handful of functions
 * Rocket's {@link CuFft} needs, with pointers and streams passed as 64-bit addresses so a call allocates nothing.
 * cuFFT's soname follows its own version, one behind the toolkit's major version: CUDA 13 ships
 * {@code libcufft.so.12}, CUDA 12 {@code libcufft.so.11}, CUDA 11 {@code libcufft.so.10}. The candidates are
 * tried newest first, skipping those newer than the installed driver supports, then plain {@code libcufft.so};
 * the CUDA toolkit's usual directories are searched besides the dynamic linker's path.
 */
final class CuFftLibrary {
    /** CUDA major version → cuFFT soname major version. */
    private static final int[][] SONAMES = {{13, 12}, {12, 11}, {11, 10}};
    private static Loaded loaded;

    private CuFftLibrary() {
    }

    /** Where the library came from, or why it could not be loaded. */
    record Loaded(String library, int version, String cause) {
    }

    static native int cufftPlan2d(int[] plan, int nx, int ny, int type);

    /** The advanced layout: {@code n}, the embeds, strides and distances as in cufft.h (never null here). */
    static native int cufftPlanMany(int[] plan, int rank, int[] n, int[] inembed, int istride, int idist,
                                    int[] onembed, int ostride, int odist, int type, int batch);

    static native int cufftSetStream(int plan, long stream);

    static native int cufftExecR2C(int plan, long idata, long odata);

    static native int cufftExecC2R(int plan, long idata, long odata);

    static native int cufftExecC2C(int plan, long idata, long odata, int direction);

    static native int cufftDestroy(int plan);

    static native int cufftGetVersion(int[] version);

    static synchronized Loaded load() {
        if (loaded == null) {
            loaded = tryLoad();
        }
        return loaded;
    }

    private static Loaded tryLoad() {
        try {
            Class.forName("com.sun.jna.Native", true, CuFftLibrary.class.getClassLoader());
        } catch (Throwable t) {
            return new Loaded(null, 0, "cannot load JNA to bind cuFFT: " + CudaDriver.firstLine(String.valueOf(t)));
        }
        List<String> names = candidates(CudaDriver.probe().driverVersion(), windows());
        List<String> dirs = searchDirectories();
        String brokenLibrary = null;
        for (String name : names) {
            for (String dir : dirs) {
                NativeLibrary.addSearchPath(name, dir);
            }
            try {
                NativeLibrary library = NativeLibrary.getInstance(name);
                Native.register(CuFftLibrary.class, library);
                int[] version = new int[1];
                cufftGetVersion(version);
                return new Loaded(library.getFile() == null ? name : library.getFile().getName(), version[0], null);
            } catch (UnsatisfiedLinkError e) {
                // Absent: try the next soname. Present but unloadable (a missing dependency): remember why.
                String reason = loadFailure(e.getMessage());
                if (brokenLibrary == null && reason != null) {
                    brokenLibrary = reason;
                }
            } catch (Throwable t) {
                return new Loaded(null, 0, "cannot bind cuFFT with JNA: " + CudaDriver.firstLine(String.valueOf(t)));
            }
        }
        if (brokenLibrary != null) {
            return new Loaded(null, 0, "cannot load cuFFT: " + brokenLibrary);
        }
        return new Loaded(null, 0, "cuFFT not found (tried " + String.join(", ", names) + "); install the CUDA "
                + "toolkit's cuFFT or put its lib64 directory on LD_LIBRARY_PATH");
    }

    /**
     * The reason a library that exists could not be loaded, or null when JNA's message (one line per place it
     * looked) only says the library is not there.
     */
    static String loadFailure(String message) {
        if (message == null) {
            return null;
        }
        for (String line : message.split("\\R")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("Unable to load library") || l.contains("cannot open shared object file")
                    || l.contains("No such file") || l.contains("not found in resource path")) {
                continue;
            }
            return CudaDriver.firstLine(l);
        }
        return null;
    }

    /** The library names to try, best first, for a driver of {@code driverVersion} (0 when unknown). */
    static List<String> candidates(int driverVersion, boolean windows) {
        int driverMajor = driverVersion / 1000;
        List<String> names = new ArrayList<>();
        for (int[] pair : SONAMES) {
            if (driverMajor == 0 || pair[0] <= driverMajor) {
                names.add(windows ? "cufft64_" + pair[1] : "libcufft.so." + pair[1]);
            }
        }
        if (!windows) {
            names.add("libcufft.so");
        }
        return names;
    }

    private static List<String> searchDirectories() {
        Set<String> roots = new LinkedHashSet<>();
        for (String variable : List.of("CUDA_HOME", "CUDA_PATH")) {
            String value = System.getenv(variable);
            if (value != null && !value.isBlank()) {
                roots.add(value);
            }
        }
        roots.add("/usr/local/cuda");
        File[] versioned = new File("/usr/local").listFiles((d, n) -> n.startsWith("cuda-"));
        if (versioned != null) {
            Arrays.stream(versioned).map(File::getPath).sorted(Comparator.reverseOrder()).forEach(roots::add);
        }
        List<String> dirs = new ArrayList<>();
        for (String root : roots) {
            for (String sub : List.of("lib64", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib", "bin")) {
                File dir = new File(root, sub);
                if (dir.isDirectory()) {
                    dirs.add(dir.getPath());
                }
            }
        }
        return dirs;
    }

    private static boolean windows() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
    }
}
