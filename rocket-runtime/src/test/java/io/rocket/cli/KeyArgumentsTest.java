package io.rocket.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Key arguments as key texts: plain texts, @FILE lines, @@ escapes, directories' visible files. */
class KeyArgumentsTest {
    @TempDir
    Path dir;

    @Test
    void textsKeyFilesAndEscapesKeepTheirOrder() throws IOException {
        Path keys = dir.resolve("keys.txt");
        Files.writeString(keys, "night\r\nnight owl\r\n\r\n   \nknight\n\nnightly", StandardCharsets.UTF_8);
        assertThat(KeyArguments.texts(List.of("first", "@" + keys, "@@last")))
                .containsExactly("first", "night", "night owl", "knight", "nightly", "@last");
    }

    @Test
    void aDirectoryGivesItsVisibleRegularFilesSortedByName() throws IOException {
        Path texts = Files.createDirectories(dir.resolve("texts"));
        for (String name : List.of("b.txt", "a.txt", "10.txt", ".hidden")) {
            Files.writeString(texts.resolve(name), name);
        }
        Files.createDirectories(texts.resolve("sub"));
        assertThat(KeyArguments.texts(List.of(texts.toString()))).containsExactly(
                texts.resolve("10.txt").toString(), texts.resolve("a.txt").toString(),
                texts.resolve("b.txt").toString());
        assertThat(KeyArguments.texts(List.of(Files.createDirectories(dir.resolve("empty")).toString()))).isEmpty();
    }

    @Test
    void aDanglingLinkInADirectory_isAKey_soThatItFailsNamed() throws IOException {
        Path texts = Files.createDirectories(dir.resolve("texts"));
        Files.writeString(texts.resolve("a.txt"), "a");
        Files.createSymbolicLink(texts.resolve("b.txt"), dir.resolve("gone.txt"));
        assertThat(KeyArguments.texts(List.of(texts.toString()))).containsExactly(
                texts.resolve("a.txt").toString(), texts.resolve("b.txt").toString());
    }

    @Test
    void unusableKeyFilesAreOneLine() throws IOException {
        Path missing = dir.resolve("missing.txt");
        assertThatThrownBy(() -> KeyArguments.texts(List.of("@" + missing)))
                .isInstanceOfSatisfying(CommandFailure.class, f -> assertThat(f.exitCode()).isEqualTo(ExitCode.USAGE))
                .hasMessage("key file " + missing + " not found");
        assertThatThrownBy(() -> KeyArguments.texts(List.of("@"))).hasMessageContaining("write @FILE");
        assertThatThrownBy(() -> KeyArguments.texts(List.of("@" + dir))).hasMessageContaining("is a directory");
        Path latin1 = dir.resolve("latin1.txt");
        Files.write(latin1, new byte[] {'c', 'a', 'f', (byte) 0xE9, '\n'});
        assertThatThrownBy(() -> KeyArguments.texts(List.of("@" + latin1)))
                .isInstanceOfSatisfying(CommandFailure.class, f -> assertThat(f.exitCode()).isEqualTo(ExitCode.ERROR))
                .hasMessageContaining("not UTF-8");
    }
}
