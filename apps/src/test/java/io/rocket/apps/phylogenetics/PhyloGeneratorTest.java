package io.rocket.apps.phylogenetics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PhyloGeneratorTest {

    @TempDir
    Path dir;

    @Test
    void generate_writesOneGzippedProteomePerTaxonAndTheTrueTree() throws IOException {
        PhyloGenerator.Result result = PhyloGenerator.generate(dir, 5, 0.3, 40, 7);

        assertThat(result.proteomes()).extracting(p -> p.getFileName().toString())
                .containsExactly("taxon01.faa.gz", "taxon02.faa.gz", "taxon03.faa.gz", "taxon04.faa.gz",
                        "taxon05.faa.gz");
        TreeNode written = NewickParser.parse(Files.readString(dir.resolve("true-tree.nwk")));
        assertThat(written.leafLabels()).containsExactlyInAnyOrder("taxon01", "taxon02", "taxon03", "taxon04",
                "taxon05");
        assertThat(RobinsonFoulds.distance(written, result.trueTree())).isZero();
        for (Path file : result.proteomes()) {
            byte[] head = Files.readAllBytes(file);
            assertThat(head[0] & 0xff).isEqualTo(0x1f);
            assertThat(head[1] & 0xff).isEqualTo(0x8b);
            ByteBuffer parsed = ByteBuffer.allocate(100_000).order(ByteOrder.LITTLE_ENDIAN);
            try (InputStream in = Files.newInputStream(file)) {
                new FastaParser().parse(file.toString(), in, parsed);
            }
            assertThat(FastaParser.proteinCount(parsed)).isEqualTo(40);
        }
    }

    @Test
    void generate_sameSeed_identicalFiles(@TempDir Path other) throws IOException {
        PhyloGenerator.Result a = PhyloGenerator.generate(dir, 4, 0.5, 20, 99);
        PhyloGenerator.Result b = PhyloGenerator.generate(other, 4, 0.5, 20, 99);

        for (int i = 0; i < 4; i++) {
            assertThat(Files.readAllBytes(b.proteomes().get(i))).isEqualTo(Files.readAllBytes(a.proteomes().get(i)));
        }
        assertThat(Files.readString(b.treeFile())).isEqualTo(Files.readString(a.treeFile()));
    }

    @Test
    void yuleTree_everyTipAtRequestedDepth() {
        TreeNode tree = YuleTree.generate(25, 0.8, new SplittableRandom(3));

        assertThat(tree.leaves()).hasSize(25);
        Map<TreeNode, Double> depth = new IdentityHashMap<>();
        List<TreeNode> order = tree.postOrder();
        depth.put(tree, 0.0);
        for (int i = order.size() - 1; i >= 0; i--) {
            TreeNode node = order.get(i);
            for (TreeNode child : node.children()) {
                assertThat(child.branchLength()).isPositive();
                depth.put(child, depth.get(node) + child.branchLength());
            }
        }
        for (TreeNode leaf : tree.leaves()) {
            assertThat(depth.get(leaf)).isCloseTo(0.8, within(1e-12));
        }
    }

    @Test
    void proteinLengths_gamma2x150_clippedWithMeanNear300() {
        int[] lengths = PhyloGenerator.proteinLengths(20_000, new SplittableRandom(5));
        double mean = 0;
        for (int length : lengths) {
            assertThat(length).isBetween(50, 2000);
            mean += length / 20_000.0;
        }
        // clipping at 50 adds E[(50 − G)+] ≈ 0.79 to Gamma(2, 150)'s mean of 300; the mean's sd here is ≈ 1.5
        assertThat(mean).isCloseTo(300.79, within(6.0));
    }

    @Test
    void evolve_longBranch_approachesStationaryDifference() {
        SplittableRandom random = new SplittableRandom(8);
        byte[] root = ProteomeEvolver.randomRoot(200_000, random);
        ProteomeEvolver evolver = new ProteomeEvolver(root.length, 0.7, random);
        byte[] child = evolver.evolve(root, 0.3, random);
        int differ = 0;
        for (int i = 0; i < root.length; i++) {
            differ += root[i] != child[i] ? 1 : 0;
        }
        // F81 with Gamma(α) rates: p-distance = (1 − Σπ²)·(1 − (1 + t·β/α)^(−α)), β = 1/(1 − Σπ²)
        double h = 1 - AminoAcidFrequencies.homozygosity();
        double expected = h * (1 - Math.pow(1 + 0.3 / h / 0.7, -0.7));
        assertThat(differ / (double) root.length).isCloseTo(expected, within(0.005));
    }
}
