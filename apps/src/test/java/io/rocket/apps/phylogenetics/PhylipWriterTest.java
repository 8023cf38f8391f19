package io.rocket.apps.phylogenetics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PhylipWriterTest {

    @Test
    void toPhylip_squareMatrix_relaxedFormat() {
        DistanceMatrix m = new DistanceMatrix(List.of("E_coli", "B subtilis", "GCF_000005845.2"));
        m.set(0, 1, 0.25);
        m.set(0, 2, 0.125);
        m.set(2, 1, 0.4);

        assertThat(PhylipWriter.toPhylip(m)).isEqualTo("3\n"
                + "E_coli 0.00000000 0.25000000 0.12500000\n"
                + "B_subtilis 0.25000000 0.00000000 0.40000000\n"
                + "GCF_000005845.2 0.12500000 0.40000000 0.00000000\n");
    }

    @Test
    void lowerTriangle_rowIHoldsTheDistancesToTheTaxaBeforeIt() {
        DistanceMatrix m = new DistanceMatrix(List.of("E_coli", "B subtilis", "GCF_000005845.2"));
        m.set(0, 1, 0.25);
        m.set(0, 2, 0.125);
        m.set(2, 1, 0.4);
        StringBuilder out = new StringBuilder();
        PhylipWriter.write(m, out, true);

        assertThat(out.toString()).isEqualTo("3\n"
                + "E_coli\n"
                + "B_subtilis 0.25000000\n"
                + "GCF_000005845.2 0.12500000 0.40000000\n");
    }
}
