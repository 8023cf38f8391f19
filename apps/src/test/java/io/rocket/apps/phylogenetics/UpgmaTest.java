package io.rocket.apps.phylogenetics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UpgmaTest {

    @Test
    void build_ultrametricMatrix_recoversRootedTreeAndHeights() {
        // ((A:1,B:1):2,(C:1.5,D:1.5):1.5): every tip at height 3.
        double[][] d = {
            {0, 2, 6, 6},
            {2, 0, 6, 6},
            {6, 6, 0, 3},
            {6, 6, 3, 0},
        };
        List<String> names = List.of("A", "B", "C", "D");
        TreeNode tree = Upgma.build(DistanceMatrix.of(names, d));

        assertThat(tree.children()).hasSize(2);
        assertThat(tree.children().get(0).leafLabels()).containsExactlyInAnyOrder("A", "B");
        assertThat(tree.children().get(0).branchLength()).isEqualTo(2);
        assertThat(tree.children().get(1).leafLabels()).containsExactlyInAnyOrder("C", "D");
        assertThat(tree.children().get(1).branchLength()).isEqualTo(1.5);
        Map<String, Double> paths = Trees.patristic(tree);
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                assertThat(paths.get(names.get(i) + "|" + names.get(j))).isEqualTo(d[i][j]);
            }
        }
    }

    @Test
    void build_averagesMergedClusterDistances() {
        // A,B merge at 1; then (AB) to C = (4 + 6)/2 = 5 → height 2.5.
        double[][] d = {
            {0, 2, 4},
            {2, 0, 6},
            {4, 6, 0},
        };
        TreeNode tree = Upgma.build(DistanceMatrix.of(List.of("A", "B", "C"), d));

        assertThat(tree.toString()).isEqualTo("((A:1,B:1):1.5,C:2.5);");
    }

    @Test
    void build_singleItem_leaf() {
        assertThat(Upgma.build(new DistanceMatrix(List.of("solo"))).toString()).isEqualTo("solo;");
    }
}
