package io.rocket.apps.bundle;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code scripts/gpu-bundle-jre}, the Java runtime of the GPU bundle: the libraries its image-codec code takes from
 * the system (Debian's JDK links the system's libjpeg.so.62 and liblcms2.so.2, which the GPU image lacked, so ImageIO's
 * JPEG writer failed there) travel inside the image, and the image's libraries find them there with
 * {@code LD_LIBRARY_PATH} unset.
 */
@Tag("slow")
class GpuBundleJreTest {
    private static final Path SCRIPT = Path.of("..", "scripts", "gpu-bundle-jre").toAbsolutePath().normalize();
    /** "NAME => PATH (address)" lines of ldd. */
    private static final Pattern RESOLVED = Pattern.compile("^\\s*(\\S+) => (/\\S+) \\(");
    /** glibc, its loader and the GCC runtime: the base system the script does not copy. */
    private static final Pattern BASE = Pattern.compile(
            "^(ld-linux[^/]*|libc|libm|libdl|libpthread|librt|libresolv|libutil|libgcc_s|libstdc\\+\\+)\\.so.*");

    @Test
    void imageCodecLibraries_travelInsideTheRuntime_andResolveThere(@TempDir Path tmp) throws Exception {
        assumeTrue(System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux"), "Linux only");
        assumeTrue(run(List.of("bash", "-c", "command -v jlink && command -v javac && command -v ldd")).code == 0,
                "needs jlink, javac and ldd on the PATH");
        Path jre = tmp.resolve("jre");

        Result made = run(List.of(SCRIPT.toString(), jre.toString()));

        assertThat(made.code).as(made.out).isZero();
        assertThat(made.out).contains("gpu-bundle-jre: ok: jpeg ");
        Path hostLib = Path.of(System.getProperty("java.home"), "lib");
        for (String library : List.of("libjavajpeg.so", "liblcms.so", "libfontmanager.so")) {
            Map<String, String> onHost = resolved(hostLib.resolve(library));
            Map<String, String> inImage = resolved(jre.resolve("lib").resolve(library));
            List<String> fromSystem = new ArrayList<>();
            onHost.forEach((name, path) -> {
                if (!path.startsWith(hostLib.getParent().toString()) && !BASE.matcher(name).matches()) {
                    fromSystem.add(name);
                }
            });
            for (String name : fromSystem) {
                assertThat(jre.resolve("lib").resolve(name)).as(library + " needs " + name).isRegularFile();
                assertThat(inImage).as(library + " in the image").containsKey(name);
                assertThat(Path.of(inImage.get(name)).toRealPath()).as(library + " resolves " + name + " in the image")
                        .isEqualTo(jre.resolve("lib").resolve(name).toRealPath());
            }
        }
    }

    /** The libraries {@code object} needs, directly or not, and where ldd finds them with LD_LIBRARY_PATH unset. */
    private static Map<String, String> resolved(Path object) throws IOException, InterruptedException {
        Result ldd = run(List.of("ldd", object.toString()));
        assertThat(ldd.code).as(ldd.out).isZero();
        Map<String, String> found = new LinkedHashMap<>();
        for (String line : ldd.out.split("\n")) {
            Matcher m = RESOLVED.matcher(line);
            if (m.find()) {
                found.put(m.group(1), Path.of(m.group(2)).normalize().toString());
            }
        }
        return found;
    }

    private record Result(int code, String out) {
    }

    private static Result run(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("LD_LIBRARY_PATH");
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(process.waitFor(), out);
    }
}
