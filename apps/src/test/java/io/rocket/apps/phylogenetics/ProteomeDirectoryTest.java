package io.rocket.apps.phylogenetics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rocket.core.RocketException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProteomeDirectoryTest {

    @TempDir
    Path dir;

    @Test
    void scan_mixedDirectory_proteomesSortedOthersIgnored() throws IOException {
        for (String name : new String[] {"b.fasta", "A.FAA.GZ", "c.fa.gz", "README", "true-tree.nwk", "d.faa.bak"}) {
            Files.writeString(dir.resolve(name), ">p\nACD\n");
        }
        Files.createDirectory(dir.resolve("sub.faa"));

        ProteomeDirectory.Listing listing = ProteomeDirectory.scan(dir);

        assertThat(listing.proteomes()).extracting(p -> p.getFileName().toString())
                .containsExactly("A.FAA.GZ", "b.fasta", "c.fa.gz");
        assertThat(listing.ignored()).containsExactly("README", "d.faa.bak", "sub.faa", "true-tree.nwk");
    }

    @Test
    void isProteome_extensions() {
        assertThat(ProteomeDirectory.isProteome("x.faa")).isTrue();
        assertThat(ProteomeDirectory.isProteome("GCF_000005845.2.fa.gz")).isTrue();
        assertThat(ProteomeDirectory.isProteome(".faa")).isFalse();
        assertThat(ProteomeDirectory.isProteome("x.gz")).isFalse();
        assertThat(ProteomeDirectory.isProteome("x.fastq")).isFalse();
    }

    @Test
    void scan_sameLabelTwice_namesBothFiles() throws IOException {
        Files.writeString(dir.resolve("a.faa"), ">p\nACD\n");
        Files.writeString(dir.resolve("a.fa.gz"), ">p\nACD\n");

        assertThatThrownBy(() -> ProteomeDirectory.scan(dir)).isInstanceOf(RocketException.class)
                .hasMessage("two files give the taxon name 'a': a.fa.gz and a.faa (leave one out)");
    }
}
