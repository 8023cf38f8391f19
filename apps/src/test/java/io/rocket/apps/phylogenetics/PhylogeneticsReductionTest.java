package io.rocket.apps.phylogenetics;

import io.rocket.apps.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code phylogenetics --top-k}: the nearest proteomes of each, as the full distance list filtered. */
class PhylogeneticsReductionTest {

    @TempDir
    Path dir;

    /** The TSV's pairs (i j) and distances. */
    private static Map<String, Double> pairs(Path tsv) throws IOException {
        return Files.readAllLines(tsv).stream().skip(1).map(l -> l.split("\t"))
                .collect(Collectors.toMap(f -> f[0] + " " + f[1], f -> Double.parseDouble(f[4]), (a, b) -> a,
                        TreeMap::new));
    }

    @Test
    void topK_keepsTheNearestProteomesOfEach() throws IOException {
        Path data = dir.resolve("data");
        PhyloGenerator.generate(data, 8, 0.5, 60, 3);
        Path all = dir.resolve("all.tsv");
        Path nearest = dir.resolve("nearest.tsv");
        assertThat(Cli.run("phylogenetics", data.toString(), "--output", all.toString()).code()).isZero();
        Cli.Result r = Cli.run("phylogenetics", data.toString(), "--output", nearest.toString(), "--top-k", "2");
        assertThat(r.code()).as(r.both()).isZero();

        Map<String, Double> full = pairs(all);
        Set<String> expected = new HashSet<>();
        for (int item = 0; item < 8; item++) {
            String self = String.valueOf(item);
            full.keySet().stream().filter(p -> List.of(p.split(" ")).contains(self))
                    .sorted(Comparator.comparing(full::get)).limit(2).forEach(expected::add);
        }
        assertThat(pairs(nearest).keySet()).isEqualTo(expected);
    }

    @Test
    void treeWithTopK_isRefusedInOneLine() throws IOException {
        Path data = dir.resolve("data");
        PhyloGenerator.generate(data, 3, 0.5, 20, 5);
        Cli.Result r = Cli.run("phylogenetics", data.toString(), "--tree", dir.resolve("t.nwk").toString(),
                "--top-k", "1");
        assertThat(r.code()).isNotZero();
        assertThat(r.err().strip().lines().toList()).hasSize(1).first().asString()
                .contains("--matrix and --tree need every distance");
    }
}
