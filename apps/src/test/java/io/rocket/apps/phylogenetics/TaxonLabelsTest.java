package io.rocket.apps.phylogenetics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class TaxonLabelsTest {

    @Test
    void fromFileName_fastaAndGzipExtensions_stripped() {
        assertThat(TaxonLabels.fromFileName("E_coli.faa.gz")).isEqualTo("E_coli");
        assertThat(TaxonLabels.fromFileName("B_subtilis.fasta")).isEqualTo("B_subtilis");
        assertThat(TaxonLabels.fromFileName("x.FA.GZ")).isEqualTo("x");
        assertThat(TaxonLabels.fromFileName("proteome.gz")).isEqualTo("proteome");
    }

    @Test
    void fromFileName_dottedAccession_keepsVersion() {
        assertThat(TaxonLabels.fromFileName("GCF_000005845.2.faa.gz")).isEqualTo("GCF_000005845.2");
        assertThat(TaxonLabels.fromFileName("GCF_000005845.2")).isEqualTo("GCF_000005845.2");
    }

    @Test
    void fromPath_usesFileNameOnly() {
        assertThat(TaxonLabels.fromPath(Path.of("/data/set.v1/taxon01.faa.gz"))).isEqualTo("taxon01");
    }
}
