package io.rocket.apps;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code rocket generate ... --out DIR} writes into a new or empty directory only, unless {@code --force}. */
class GenerateOutputTest {

    @TempDir
    Path tmp;

    /** A small data set of each generator, into {@code dir}. */
    private static String[] generate(String app, Path dir, String... more) {
        List<String> args = new ArrayList<>(List.of("generate", app, "--out", dir.toString()));
        args.addAll(switch (app) {
            case "forensics" -> List.of("--cameras", "2", "--images-per-camera", "2", "--width", "32",
                    "--height", "32");
            case "phylogenetics" -> List.of("--taxa", "3", "--proteins", "5");
            case "microscopy" -> List.of("--particles", "2");
            default -> throw new IllegalArgumentException(app);
        });
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    @ParameterizedTest
    @ValueSource(strings = {"forensics", "phylogenetics", "microscopy"})
    void nonEmptyDirectory_refusedWithExit2AndUntouched_writtenWithForce(String app) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("data"));
        Path other = Files.writeString(dir.resolve("notes.txt"), "someone else's file\n");
        Path truth = Files.writeString(dir.resolve("truth.tsv"), "an older set's truth\n");

        Cli.Result refused = Cli.run(generate(app, dir));

        assertThat(refused.code()).as(refused.both()).isEqualTo(2);
        assertThat(refused.err()).isEqualTo("rocket: --out " + dir + " is not empty: pass --force to write the data "
                + "set into it anyway (replacing files of the same names), or choose an empty directory"
                + System.lineSeparator());
        assertThat(refused.out()).isEmpty();
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactlyInAnyOrder(other, truth);
        }
        assertThat(Files.readString(other)).isEqualTo("someone else's file\n");
        assertThat(Files.readString(truth)).isEqualTo("an older set's truth\n");

        Cli.Result forced = Cli.run(generate(app, dir, "--force"));

        assertThat(forced.code()).as(forced.both()).isZero();
        assertThat(forced.out()).startsWith("wrote ");
        assertThat(Files.readString(other)).isEqualTo("someone else's file\n");
        try (var files = Files.list(dir)) {
            assertThat(files.count()).isGreaterThan(2);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"forensics", "phylogenetics", "microscopy"})
    void missingOrEmptyDirectory_written(String app) throws IOException {
        Path missing = tmp.resolve("new").resolve("data");
        assertThat(Cli.run(generate(app, missing)).code()).isZero();
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        assertThat(Cli.run(generate(app, empty)).code()).isZero();
        try (var files = Files.list(empty)) {
            assertThat(files.count()).isGreaterThanOrEqualTo(3);
        }
    }

    @Test
    void fileAsOut_refusedWithExit2() throws IOException {
        Path file = Files.writeString(tmp.resolve("photos"), "not a directory\n");
        Cli.Result r = Cli.run(generate("forensics", file, "--force"));
        assertThat(r.code()).as(r.both()).isEqualTo(2);
        assertThat(r.err()).contains("--out " + file + " is a file, not a directory");
        assertThat(Files.readString(file)).isEqualTo("not a directory\n");
    }
}
