package io.rocket.apps.cli;

import io.rocket.apps.Launcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Rocket in a pipe: a list read from standard input ({@code -}), the pair TSV written to standard output. */
class PipeTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void inputListFromStdin_tsvToStdout_theSummaryOnStderr() throws Exception {
        SmallData.generate(dir);
        List<String> photos;
        try (Stream<Path> files = Files.list(dir.resolve("photos"))) {
            photos = files.filter(p -> p.toString().endsWith(".jpg")).map(Path::toString).sorted().toList();
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path stderr = dir.resolve("stderr.txt");
        Process p = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                Launcher.class.getName(), "forensics", "--input-list", "-", "--output", "-", "--no-progress")
                .redirectError(stderr.toFile()).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write((String.join("\n", photos) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(Files.readString(stderr)).isZero();
        List<String> lines = out.lines().toList();
        assertThat(lines.get(0)).isEqualTo("i\tj\tleft\tright\tscore");
        assertThat(lines).hasSize(1 + 6);
        assertThat(Files.readString(stderr)).contains("forensics: 4 photos of 64x64 in standard input")
                .contains("forensics: 4 items, 6 pairs (0 errors)");
    }
}
