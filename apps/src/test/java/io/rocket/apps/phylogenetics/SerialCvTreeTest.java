package io.rocket.apps.phylogenetics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End to end on generated data with a known tree: CVTree distances (K = 5) and neighbour joining recover it. */
class SerialCvTreeTest {

    @TempDir
    Path dir;

    @Test
    void neighborJoiningTree_12TaxaDepth05_recoversTrueTree() throws IOException {
        PhyloGenerator.Result data = PhyloGenerator.generate(dir, 12, 0.5, 300, 1);

        TreeNode tree = SerialCvTree.neighborJoiningTree(data.proteomes(), 5);

        assertThat(RobinsonFoulds.distance(tree, NewickParser.parse(java.nio.file.Files.readString(data.treeFile()))))
                .isZero();
    }

    @Test
    void neighborJoiningTree_16TaxaDepth1_recoversTrueTree() throws IOException {
        PhyloGenerator.Result data = PhyloGenerator.generate(dir, 16, 1.0, 300, 1);

        TreeNode tree = SerialCvTree.neighborJoiningTree(data.proteomes(), 5);

        assertThat(RobinsonFoulds.distance(tree, NewickParser.parse(java.nio.file.Files.readString(data.treeFile()))))
                .isZero();
    }

    @Test
    void distances_generatedData_symmetricAndBetweenZeroAndHalf() throws IOException {
        PhyloGenerator.Result data = PhyloGenerator.generate(dir, 4, 0.5, 60, 2);

        DistanceMatrix d = SerialCvTree.distances(data.proteomes(), 4);

        assertThat(d.names()).containsExactly("taxon01", "taxon02", "taxon03", "taxon04");
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                assertThat(d.get(i, j)).isEqualTo(d.get(j, i)).isBetween(0.0, 0.5);
            }
        }
    }
}
