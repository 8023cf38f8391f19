package io.rocket.apps.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocket.apps.Cli;
import io.rocket.apps.forensics.ForensicsGenerator;
import io.rocket.apps.forensics.GeneratorOptions;
import io.rocket.apps.forensics.TruthTable;
import io.rocket.apps.phylogenetics.PhyloGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Queries against references in the bundled apps: the scores of a query × reference run equal the matching block of
 * a run of every pair on the same inputs; forensics identifies each query's camera, phylogenetics places each
 * query among its nearest references; outputs that need every pair are refused in one line.
 */
class QueryAgainstReferenceTest {

    @TempDir
    Path dir;

    private static Cli.Result ok(String... args) {
        Cli.Result r = Cli.run(args);
        assertThat(r.code()).as(r.both()).isZero();
        return r;
    }

    /** A pair TSV's values by the unordered pair of labels ("a|b", a before b). */
    static Map<String, Double> byLabels(Path tsv) throws IOException {
        Map<String, Double> out = new TreeMap<>();
        for (String line : Files.readAllLines(tsv).subList(1, Files.readAllLines(tsv).size())) {
            String[] f = line.split("\t");
            out.put(pair(f[2], f[3]), Double.parseDouble(f[4]));
        }
        return out;
    }

    static String pair(String a, String b) {
        return a.compareTo(b) < 0 ? a + "|" + b : b + "|" + a;
    }

    /** Copies {@code files} of {@code from} into a new directory {@code name}. */
    private Path copy(String name, List<Path> files) throws IOException {
        Path to = Files.createDirectories(dir.resolve(name));
        for (Path f : files) {
            Files.copy(f, to.resolve(f.getFileName()));
        }
        return to;
    }

    private static List<Path> files(Path d, String suffix) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }

    /** The rows of a match table after its header, split. */
    private static List<String[]> rows(Path tsv) throws IOException {
        return Files.readAllLines(tsv).stream().skip(1).map(l -> l.split("\t", -1)).toList();
    }

    @Test
    void forensics_queryBlockEqualsTheFullRun_andIdentifyPicksTheTrueCamera() throws Exception {
        Path photos = dir.resolve("photos");
        ForensicsGenerator.generate(photos, new GeneratorOptions(3, 4, 256, 256, 0.03, 90, 7));
        TruthTable truth = TruthTable.read(photos);
        List<Path> all = files(photos, ".jpg");
        // One photo of each camera is a query; the others are the references.
        List<Path> queries = new ArrayList<>();
        List<Path> references = new ArrayList<>();
        for (Path p : all) {
            String camera = truth.cameraOf(p.getFileName().toString());
            boolean first = queries.stream().noneMatch(q -> truth.cameraOf(q.getFileName().toString()).equals(camera));
            (first ? queries : references).add(p);
        }
        assertThat(queries).hasSize(3);
        Path q = copy("queries", queries);
        Path r = copy("references", references);

        Path full = dir.resolve("full.tsv");
        ok("forensics", photos.toString(), "--output", full.toString());
        Path block = dir.resolve("block.tsv");
        Path identify = dir.resolve("identify.tsv");
        Path npy = dir.resolve("block.npy");
        Cli.Result run = ok("forensics", q.toString(), "--against", r.toString(), "--output", block.toString(),
                "--identify", identify.toString());
        assertThat(run.out()).contains("identify: best reference of 3 of 3 queries");
        Files.copy(photos.resolve(TruthTable.FILE_NAME), r.resolve(TruthTable.FILE_NAME));
        assertThat(ok("forensics", q.toString(), "--against", r.toString(), "--identify", identify.toString()).out())
                .contains("identify: against truth.tsv, 3 of 3 queries name a photo of their own camera");

        Map<String, Double> fullScores = byLabels(full);
        Map<String, Double> blockScores = byLabels(block);
        assertThat(blockScores).hasSize(3 * 9);
        // A pair whose query comes after its reference in the full run is computed the other way round: PCE is
        // symmetric, its float arithmetic only to rounding.
        blockScores.forEach((k, v) -> assertThat(v).as(k).isCloseTo(fullScores.get(k), close(fullScores.get(k))));

        List<String[]> rows = rows(identify);
        assertThat(Files.readAllLines(identify).get(0)).isEqualTo("query\trank\treference\tscore\tsame_camera");
        assertThat(rows).hasSize(3);
        for (String[] row : rows) {
            assertThat(truth.cameraOf(row[2])).as(String.join(" ", row)).isEqualTo(truth.cameraOf(row[0]));
            assertThat(Double.parseDouble(row[3])).isEqualTo(blockScores.entrySet().stream()
                    .filter(e -> e.getKey().contains(row[0])).mapToDouble(Map.Entry::getValue).max().orElseThrow());
            assertThat(row[4]).isEqualTo("yes");
        }

        // The dense .npy of the run is the queries x references matrix, rows and columns labelled.
        ok("forensics", q.toString(), "--against", r.toString(), "--output", npy.toString(), "--npy-dtype",
                "float64");
        List<String> rowLabels = Files.readAllLines(dir.resolve("block.rows.txt"));
        List<String> colLabels = Files.readAllLines(dir.resolve("block.cols.txt"));
        assertThat(rowLabels).hasSize(3);
        assertThat(colLabels).hasSize(9);
        List<String> loaded = numpy(npy);
        assertThat(loaded.get(0)).isEqualTo("3 9");
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 9; b++) {
                assertThat(Double.parseDouble(loaded.get(1 + a * 9 + b)))
                        .isEqualTo(blockScores.get(pair(rowLabels.get(a), colLabels.get(b))));
            }
        }

        Cli.Result refused = Cli.run("forensics", q.toString(), "--against", r.toString(), "--clusters",
                dir.resolve("c.tsv").toString());
        assertThat(refused.code()).isNotZero();
        assertThat(refused.err().strip().lines().toList()).hasSize(1).first().asString()
                .contains("--matrix and --clusters need every pair");
    }

    @Test
    void phylogenetics_nearestAreTheKNearestOfTheFullRun_andStoreRefiltersWithoutComputing() throws IOException {
        Path data = dir.resolve("data");
        PhyloGenerator.generate(data, 8, 0.5, 60, 3);
        List<Path> all = files(data, ".faa.gz");
        assertThat(all).hasSize(8);
        Path q = copy("queries", all.subList(0, 3));
        Path r = copy("references", all.subList(3, 8));
        Path full = dir.resolve("full.tsv");
        ok("phylogenetics", data.toString(), "--k", "4", "--output", full.toString());
        Map<String, Double> fullDistances = byLabels(full);

        Path block = dir.resolve("block.tsv");
        ok("phylogenetics", q.toString(), "--against", r.toString(), "--k", "4", "--output", block.toString());
        Map<String, Double> blockDistances = byLabels(block);
        assertThat(blockDistances).hasSize(3 * 5);
        blockDistances.forEach((k, v) -> assertThat(v).as(k).isEqualTo(fullDistances.get(k)));

        Path store = dir.resolve("store");
        Path nearest = dir.resolve("nearest.tsv");
        Path s1 = dir.resolve("s1.json");
        Cli.Result placed = ok("phylogenetics", q.toString(), "--against", r.toString(), "--k", "4", "--top-k", "2",
                "--nearest", nearest.toString(), "--store", store.toString(), "--summary-json", s1.toString());
        assertThat(placed.out()).contains("nearest: 3 of 3 queries placed among 5 references");
        assertThat(json(s1, "pairs_computed")).isEqualTo(15);
        checkNearest(nearest, blockDistances, 2);

        // Another K from the store: the same placement a fresh run gives, and no pair computed.
        Path nearest3 = dir.resolve("nearest3.tsv");
        Path kept = dir.resolve("kept.tsv");
        Path s2 = dir.resolve("s2.json");
        ok("phylogenetics", q.toString(), "--against", r.toString(), "--k", "4", "--top-k", "3", "--nearest",
                nearest3.toString(), "--store", store.toString(), "--output", kept.toString(), "--summary-json",
                s2.toString());
        assertThat(json(s2, "pairs_computed")).isZero();
        assertThat(json(s2, "pairs_reused")).isEqualTo(15);
        checkNearest(nearest3, blockDistances, 3);
        Path fresh = dir.resolve("fresh.tsv");
        ok("phylogenetics", q.toString(), "--against", r.toString(), "--k", "4", "--top-k", "3", "--output",
                fresh.toString());
        assertThat(byLabels(kept)).isEqualTo(byLabels(fresh));

        Cli.Result refused = Cli.run("phylogenetics", q.toString(), "--against", r.toString(), "--tree",
                dir.resolve("t.nwk").toString());
        assertThat(refused.code()).isNotZero();
        assertThat(refused.err().strip().lines().toList()).hasSize(1).first().asString()
                .contains("--matrix and --tree need every distance between the proteomes");
    }

    /** Each query's rows are its k nearest references of the full run, nearest first. */
    private static void checkNearest(Path table, Map<String, Double> distances, int k) throws IOException {
        List<String[]> rows = rows(table);
        assertThat(rows).hasSize(3 * k);
        for (int at = 0; at < rows.size(); at += k) {
            String query = rows.get(at)[0];
            List<Map.Entry<String, Double>> expected = distances.entrySet().stream()
                    .filter(e -> List.of(e.getKey().split("\\|")).contains(query))
                    .sorted(Map.Entry.<String, Double>comparingByValue().thenComparing(Map.Entry::getKey))
                    .limit(k).toList();
            for (int m = 0; m < k; m++) {
                String[] row = rows.get(at + m);
                assertThat(row[0]).isEqualTo(query);
                assertThat(row[1]).isEqualTo(String.valueOf(m + 1));
                assertThat(pair(row[0], row[2])).isEqualTo(expected.get(m).getKey());
                assertThat(Double.parseDouble(row[3])).isEqualTo(expected.get(m).getValue());
            }
        }
    }

    private static org.assertj.core.data.Offset<Double> close(double expected) {
        return org.assertj.core.data.Offset.offset(1e-6 * Math.max(1, Math.abs(expected)));
    }

    private static long json(Path summary, String field) throws IOException {
        return new ObjectMapper().readTree(summary.toFile()).path(field).asLong();
    }

    /** The shape and the values of an .npy file as NumPy reads them; skips the check without NumPy. */
    private static List<String> numpy(Path npy) throws IOException, InterruptedException {
        String load = "import sys, numpy\na = numpy.load(sys.argv[1])\nprint(' '.join(str(d) for d in a.shape))\n"
                + "for x in a.ravel():\n    print(repr(float(x)))";
        Process p;
        try {
            p = new ProcessBuilder("python3", "-c", load, npy.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "python3 not found; the .npy check against NumPy skips");
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assumeTrue(p.exitValue() == 0 || !out.contains("No module named"), "NumPy not found; the .npy check skips");
        assertThat(p.exitValue()).as(out).isZero();
        return out.lines().toList();
    }
}
