package io.rocket.core.cuda;

import io.rocket.core.RocketException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The CUDA kernel modules packaged on the class path. The build (scripts/build-kernels, run by Maven when nvcc is
 * on the PATH) compiles each {@code src/main/cuda/NAME.cu} of a module to {@code kernels/NAME.fatbin} (cubins for
 * the common GPU generations plus PTX for the rest) and {@code kernels/NAME.ptx}, and lists NAME in
 * {@value #LIST}. Every jar or directory may carry such a list (the launcher's shaded jar appends them), so
 * {@link ClassLoader#getResources} finds all modules without knowing which applications are present.
 *
 * <p>Applications call {@link #require} when they build their cuda kernels, so a missing module is a one-line error
 * before the run starts rather than a failure on every item.
 */
public final class KernelModules {
    /** The class-path resource listing module names, one per line. */
    static final String LIST = "META-INF/rocket/kernels.list";
    /** Where the compiled modules are. */
    static final String DIR = "kernels/";
    private static final String HOW_TO_BUILD = "build on a machine with the CUDA toolkit's nvcc on the PATH "
            + "(mvn package, or scripts/build-kernels)";

    private KernelModules() {
    }

    /**
     * Checks that module {@code name} is packaged.
     *
     * @param name the module's name: the base name of its {@code .cu} file, without extension
     * @throws RocketException naming the module and how to build it
     */
    public static void require(String name) {
        ClassLoader loader = loader();
        if (loader.getResource(DIR + name + ".fatbin") == null && loader.getResource(DIR + name + ".ptx") == null) {
            throw new RocketException("no CUDA kernels '" + name + "' on the class path (" + DIR + name
                    + ".fatbin or .ptx): " + HOW_TO_BUILD);
        }
    }

    /** Empty when some kernels are packaged, else a one-line reason and how to build them. */
    static Optional<String> missingCause() {
        return names().isEmpty()
                ? Optional.of("no CUDA kernels on the class path (this build ran without nvcc): " + HOW_TO_BUILD)
                : Optional.empty();
    }

    /** The module names listed on the class path, in class-path order, each once. */
    static List<String> names() {
        Set<String> names = new LinkedHashSet<>();
        try {
            Enumeration<URL> lists = loader().getResources(LIST);
            while (lists.hasMoreElements()) {
                try (InputStream in = lists.nextElement().openStream()) {
                    names.addAll(parse(in));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + LIST + ": " + e.getMessage(), e);
        }
        return List.copyOf(names);
    }

    /** Module names from one list: one per line; blank lines and {@code #} comments ignored. */
    static List<String> parse(InputStream in) throws IOException {
        List<String> names = new ArrayList<>();
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String line;
        while ((line = reader.readLine()) != null) {
            String name = line.strip();
            if (!name.isEmpty() && !name.startsWith("#")) {
                names.add(name);
            }
        }
        return names;
    }

    /** One loadable form of a module. */
    record Image(String resource, byte[] bytes) {
    }

    /**
     * The images of a module, best first: the fatbin (exact cubins, JIT only where none fits) and the PTX (JIT
     * compiled by the driver). PTX is NUL-terminated as cuModuleLoadData expects.
     */
    static List<Image> images(String name) {
        List<Image> images = new ArrayList<>();
        for (String suffix : List.of(".fatbin", ".ptx")) {
            String resource = DIR + name + suffix;
            try (InputStream in = loader().getResourceAsStream(resource)) {
                if (in != null) {
                    byte[] bytes = in.readAllBytes();
                    if (suffix.equals(".ptx")) {
                        bytes = Arrays.copyOf(bytes, bytes.length + 1);
                    }
                    images.add(new Image(resource, bytes));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + resource + ": " + e.getMessage(), e);
            }
        }
        return images;
    }

    private static ClassLoader loader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : KernelModules.class.getClassLoader();
    }
}
