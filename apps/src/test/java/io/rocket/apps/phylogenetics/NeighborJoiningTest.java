package io.rocket.apps.phylogenetics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NeighborJoiningTest {

    /**
     * The five-taxon additive example used to teach neighbour joining (e.g. Wikipedia's): the tree is
     * ((a:2,b:3):3,c:4,(d:2,e:1):2), whose path lengths give exactly this matrix.
     */
    static final double[][] TEXTBOOK = {
        {0, 5, 9, 9, 8},
        {5, 0, 10, 10, 9},
        {9, 10, 0, 8, 7},
        {9, 10, 8, 0, 3},
        {8, 9, 7, 3, 0},
    };
    static final List<String> NAMES = List.of("a", "b", "c", "d", "e");

    @Test
    void build_textbookAdditiveMatrix_recoversTopology() {
        TreeNode tree = NeighborJoining.build(DistanceMatrix.of(NAMES, TEXTBOOK));

        assertThat(RobinsonFoulds.distance(tree, NewickParser.parse("((a,b),c,(d,e));"))).isZero();
    }

    @Test
    void build_textbookAdditiveMatrix_recoversBranchLengths() {
        TreeNode tree = NeighborJoining.build(DistanceMatrix.of(NAMES, TEXTBOOK));

        Map<String, Double> leafLengths = new HashMap<>();
        for (TreeNode leaf : tree.leaves()) {
            leafLengths.put(leaf.label(), leaf.branchLength());
        }
        assertThat(leafLengths.get("a")).isCloseTo(2, within(1e-12));
        assertThat(leafLengths.get("b")).isCloseTo(3, within(1e-12));
        assertThat(leafLengths.get("c")).isCloseTo(4, within(1e-12));
        assertThat(leafLengths.get("d")).isCloseTo(2, within(1e-12));
        assertThat(leafLengths.get("e")).isCloseTo(1, within(1e-12));
        double total = 0;
        for (TreeNode node : tree.postOrder()) {
            total += node == tree ? 0 : node.branchLength();
        }
        assertThat(total).isCloseTo(2 + 3 + 4 + 2 + 1 + 3 + 2, within(1e-12));
        Map<String, Double> paths = Trees.patristic(tree);
        for (int i = 0; i < 5; i++) {
            for (int j = 0; j < 5; j++) {
                assertThat(paths.get(NAMES.get(i) + "|" + NAMES.get(j))).isCloseTo(TEXTBOOK[i][j], within(1e-12));
            }
        }
    }

    @Test
    void build_randomAdditiveTree_recoversTreeExactly() {
        TreeNode truth = YuleTree.generate(30, 1.0, new java.util.SplittableRandom(11));
        List<String> names = truth.leafLabels();
        Map<String, Double> paths = Trees.patristic(truth);
        DistanceMatrix matrix = new DistanceMatrix(names);
        for (int i = 0; i < names.size(); i++) {
            for (int j = 0; j < i; j++) {
                matrix.set(i, j, paths.get(names.get(i) + "|" + names.get(j)));
            }
        }

        TreeNode tree = NeighborJoining.build(matrix);

        assertThat(RobinsonFoulds.distance(tree, truth)).isZero();
        Map<String, Double> rebuilt = Trees.patristic(tree);
        paths.forEach((pair, d) -> assertThat(rebuilt.get(pair)).isCloseTo(d, within(1e-9)));
    }

    @Test
    void build_twoAndThreeTaxa_smallTrees() {
        TreeNode two = NeighborJoining.build(DistanceMatrix.of(List.of("x", "y"), new double[][] {{0, 4}, {4, 0}}));
        TreeNode three = NeighborJoining.build(DistanceMatrix.of(List.of("x", "y", "z"),
                new double[][] {{0, 3, 4}, {3, 0, 5}, {4, 5, 0}}));

        assertThat(two.toString()).isEqualTo("(x:2,y:2);");
        assertThat(three.toString()).isEqualTo("(x:1,y:2,z:3);");
    }

    @Test
    void build_nonAdditiveMatrix_noNegativeBranches() {
        double[][] d = {
            {0, 0.9, 0.1, 0.5},
            {0.9, 0, 0.8, 0.1},
            {0.1, 0.8, 0, 0.9},
            {0.5, 0.1, 0.9, 0},
        };
        TreeNode tree = NeighborJoining.build(DistanceMatrix.of(List.of("p", "q", "r", "s"), d));

        for (TreeNode node : tree.postOrder()) {
            if (node != tree) {
                assertThat(node.branchLength()).isGreaterThanOrEqualTo(0);
            }
        }
    }
}
