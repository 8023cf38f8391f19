package io.rocket.apps.phylogenetics;

import io.rocket.apps.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The phylogenetics command's outputs in the scalable formats: the distances as a float64 {@code .npy} condensed
 * triangle equal to the lower-triangle PHYLIP matrix of the same run, and the microscopy command, whose results are
 * no numbers, refusing an {@code .npy} in one line.
 */
class PhylogeneticsOutputsTest {

    @TempDir
    Path dir;

    @Test
    void theNpyTriangleHoldsTheDistancesOfTheLowerPhylipMatrix() throws IOException {
        PhyloGenerator.generate(dir.resolve("data"), 6, 0.5, 60, 5);
        Path npy = dir.resolve("d.npy");
        Path phylip = dir.resolve("d.phy");
        Cli.Result r = Cli.run("phylogenetics", dir.resolve("data").toString(), "--k", "4", "--output",
                npy.toString(), "--npy-dtype", "float64", "--matrix", phylip.toString(), "--phylip-format", "lower");
        assertThat(r.code()).as(r.both()).isZero();
        assertThat(r.out()).contains("PHYLIP lower triangle -> " + phylip);

        List<String> rows = Files.readAllLines(phylip);
        assertThat(rows.get(0)).isEqualTo("6");
        List<String> labels = Files.readAllLines(dir.resolve("d.labels.txt"));
        assertThat(labels).hasSize(6);
        byte[] bytes = Files.readAllBytes(npy);
        int header = 10 + ((bytes[8] & 0xff) | (bytes[9] & 0xff) << 8);
        assertThat(bytes.length).isEqualTo(header + 15 * 8);
        ByteBuffer data = ByteBuffer.wrap(bytes, header, 15 * 8).slice().order(ByteOrder.LITTLE_ENDIAN);
        int n = 6;
        for (int i = 1; i < n; i++) {
            String[] fields = rows.get(1 + i).split(" ");
            assertThat(fields).hasSize(1 + i); // the name, then the distances to the taxa before it
            for (int j = 0; j < i; j++) {
                int condensed = n * j - j * (j + 1) / 2 + i - j - 1; // (j, i) with j < i
                assertThat(data.getDouble(condensed * 8)).as("(%d, %d)", j, i)
                        .isCloseTo(Double.parseDouble(fields[1 + j]), within(1e-8));
            }
        }
    }

    @Test
    void anApplicationWithoutNumericResultsRefusesAnNpyInOneLine() throws IOException {
        Cli.Result gen = Cli.run("generate", "microscopy", "--out", dir.resolve("particles").toString(),
                "--particles", "3", "--seed", "1");
        assertThat(gen.code()).as(gen.both()).isZero();
        Cli.Result r = Cli.run("microscopy", dir.resolve("particles").toString(), "--output",
                dir.resolve("x.npy").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().lines().toList()).singleElement().asString()
                .contains("microscopy results are not numbers").contains("write .tsv or .tsv.gz")
                .doesNotContain("Application.score");
    }
}
