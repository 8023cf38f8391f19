package io.rocket.files;

import io.rocket.core.RocketException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InputDirectoryTest {

    @Test
    void listsItemsByNameAndNamesOnlyUnexpectedEntries(@TempDir Path dir) throws IOException {
        Files.write(dir.resolve("b.dat"), new byte[7]);
        Files.write(dir.resolve("a.dat"), new byte[3]);
        Files.writeString(dir.resolve("notes.txt"), "x");
        Files.writeString(dir.resolve("truth.tsv"), "x");
        Files.writeString(dir.resolve(".hidden.dat"), "x");
        Files.createDirectory(dir.resolve("sub.dat"));

        InputDirectory.Listing listing = InputDirectory.scan(dir, "data", n -> n.endsWith(".dat"),
                Set.of("truth.tsv"));

        assertThat(listing.items()).extracting(p -> p.getFileName().toString()).containsExactly("a.dat", "b.dat");
        assertThat(listing.ignored()).containsExactly("notes.txt", "sub.dat");
        assertThat(listing.largestBytes()).isEqualTo(7);
    }

    @Test
    void aDanglingLinkWithAnItemName_isAnItem_otherDanglingLinksAreIgnored(@TempDir Path dir) throws IOException {
        Files.write(dir.resolve("a.dat"), new byte[3]);
        Files.createSymbolicLink(dir.resolve("b.dat"), dir.resolve("gone.dat"));
        Files.createSymbolicLink(dir.resolve("c.txt"), dir.resolve("gone.txt"));

        InputDirectory.Listing listing = InputDirectory.scan(dir, "data", n -> n.endsWith(".dat"), Set.of());

        assertThat(listing.items()).extracting(p -> p.getFileName().toString()).containsExactly("a.dat", "b.dat");
        assertThat(listing.ignored()).containsExactly("c.txt");
        assertThat(listing.largestBytes()).isEqualTo(3);
    }

    @Test
    void aMissingDirectoryIsNamed(@TempDir Path dir) {
        Path missing = dir.resolve("nowhere");
        assertThatThrownBy(() -> InputDirectory.scan(missing, "particle", n -> true, Set.of()))
                .isInstanceOf(RocketException.class)
                .hasMessage(missing + ": not a directory (give the directory holding the particle files)");
    }
}
