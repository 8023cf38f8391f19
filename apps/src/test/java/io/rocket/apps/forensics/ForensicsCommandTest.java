package io.rocket.apps.forensics;

import io.rocket.apps.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The forensics app through the launcher and the runtime: generated sets are clustered exactly as the truth for
 * both metrics (the two sets), outputs have the documented formats, and bad photos fail alone.
 */
class ForensicsCommandTest {

    @TempDir
    Path dir;

    /** Reads a {@code file<TAB>value} file without header into a map. */
    private static Map<String, String> table(Path file) throws IOException {
        Map<String, String> map = new HashMap<>();
        for (String line : Files.readAllLines(file)) {
            String[] f = line.split("\t");
            map.put(f[0], f[1]);
        }
        return map;
    }

    /** The adjusted Rand index of the clusters file against truth.tsv, over the files both name. */
    private static double ari(Path clusters, Path truthDir) throws IOException {
        Map<String, String> found = table(clusters);
        TruthTable truth = TruthTable.read(truthDir);
        List<String> files = new ArrayList<>(truth.files());
        int[] expected = truth.cameraIds(files);
        int[] got = files.stream().mapToInt(f -> Integer.parseInt(found.get(f))).toArray();
        return AdjustedRandIndex.of(got, expected);
    }

    private void clustersEqualTruth(String size, String sigmaK, String metric) throws IOException {
        Path photos = dir.resolve("photos");
        String[] wh = size.split("x");
        Cli.Result g = Cli.run("generate", "forensics", "--out", photos.toString(), "--cameras", "4",
                "--images-per-camera", "6", "--width", wh[0], "--height", wh[1], "--sigma-k", sigmaK,
                "--seed", "11");
        assertThat(g.code()).as(g.both()).isZero();
        Path clusters = dir.resolve(metric + "-clusters.tsv");
        Path output = dir.resolve(metric + "-pairs.tsv");
        Cli.Result r = Cli.run("forensics", photos.toString(), "--metric", metric, "--device", "cpu:2",
                "--clusters", clusters.toString(), "--output", output.toString());
        assertThat(r.code()).as(r.both()).isZero();
        assertThat(ari(clusters, photos)).as(r.both()).isEqualTo(1.0);
        assertThat(r.out()).contains("24 photos in 4 clusters").contains("adjusted Rand index 1.000");
        List<String> pairs = Files.readAllLines(output);
        assertThat(pairs.get(0)).isEqualTo("i\tj\tleft\tright\tscore");
        assertThat(pairs).hasSize(1 + 24 * 23 / 2);
    }

    @Test
    void pce_4cameras6images512_clustersEqualTruth() throws IOException {
        clustersEqualTruth("512x512", "0.02", "pce");
    }

    @Test
    void ncc_4cameras6images512_clustersEqualTruthAtDefaultThreshold() throws IOException {
        clustersEqualTruth("512x512", "0.02", "ncc");
    }

    @Test
    void pce_4cameras6images1024WeakFingerprint_clustersEqualTruth() throws IOException {
        clustersEqualTruth("1024x1024", "0.01", "pce");
    }

    @Test
    void ncc_4cameras6images1024WeakFingerprint_clustersEqualTruthAtDefaultThreshold() throws IOException {
        clustersEqualTruth("1024x1024", "0.01", "ncc");
    }

    @Test
    void matrix_isSquareSymmetricWithFileNames() throws IOException {
        Path photos = dir.resolve("photos");
        ForensicsGenerator.generate(photos, new GeneratorOptions(2, 2, 64, 48, 0.02, 90, 3));
        Path matrix = dir.resolve("m.tsv");
        Cli.Result r = Cli.run("forensics", photos.toString(), "--matrix", matrix.toString(), "--metric", "ncc");
        assertThat(r.code()).as(r.both()).isZero();
        List<String[]> rows = Files.readAllLines(matrix).stream().map(l -> l.split("\t", -1)).toList();
        assertThat(rows).hasSize(5);
        assertThat(rows.get(0)).containsExactly("file", "img_0000.jpg", "img_0001.jpg", "img_0002.jpg",
                "img_0003.jpg");
        for (int i = 1; i <= 4; i++) {
            assertThat(rows.get(i)[0]).isEqualTo(rows.get(0)[i]);
            assertThat(rows.get(i)[i]).isEmpty();
            for (int j = 1; j <= 4; j++) {
                if (i != j) {
                    assertThat(rows.get(i)[j]).isEqualTo(rows.get(j)[i]);
                    assertThat(Double.parseDouble(rows.get(i)[j])).isBetween(-1.0, 1.0);
                }
            }
        }
    }

    @Test
    void badPhotos_failAloneNamedAndTheRestIsClustered() throws IOException {
        Path photos = dir.resolve("photos");
        ForensicsGenerator.generate(photos, new GeneratorOptions(2, 3, 256, 256, 0.03, 90, 5));
        byte[] jpeg = Files.readAllBytes(photos.resolve("img_0000.jpg"));
        Files.write(photos.resolve("truncated.jpg"), Arrays.copyOf(jpeg, jpeg.length / 3));
        Files.writeString(photos.resolve("notes.jpg"), "not a photo at all");
        ForensicsGenerator.generate(dir.resolve("other"), new GeneratorOptions(1, 1, 128, 96, 0.02, 90, 6));
        Files.copy(dir.resolve("other/img_0000.jpg"), photos.resolve("small.jpg"));
        Files.writeString(photos.resolve("readme.txt"), "camera test set");
        Path clusters = dir.resolve("clusters.tsv");

        Cli.Result r = Cli.run("forensics", photos.toString(), "--clusters", clusters.toString(),
                "--host-cache-size", "4slots", "--device-cache-size", "3slots");

        assertThat(r.code()).as(r.both()).isEqualTo(3);
        assertThat(r.out()).contains("small.jpg").contains("128x96").contains("truncated.jpg")
                .contains("notes.jpg: not a JPEG")
                .contains("6 photos in 2 clusters")
                .contains("3 photo(s) not clustered (failed to load): notes.jpg, small.jpg, truncated.jpg")
                .contains("adjusted Rand index 1.000");
        assertThat(r.err()).contains("ignoring 1 entry that is not a JPEG photo: readme.txt");
        Map<String, String> found = table(clusters);
        assertThat(found).hasSize(9).containsEntry("notes.jpg", "NA").containsEntry("small.jpg", "NA")
                .containsEntry("truncated.jpg", "NA");
    }

    @Test
    void aDanglingLink_failsAloneNamed_likeACorruptPhoto() throws IOException {
        Path photos = dir.resolve("photos");
        ForensicsGenerator.generate(photos, new GeneratorOptions(2, 2, 64, 64, 0.03, 90, 5));
        Path target = dir.resolve("moved-away.jpg");
        Files.createSymbolicLink(photos.resolve("link.jpg"), target);
        Path clusters = dir.resolve("clusters.tsv");

        Cli.Result r = Cli.run("forensics", photos.toString(), "--clusters", clusters.toString());

        assertThat(r.code()).as(r.both()).isEqualTo(3);
        assertThat(r.both()).contains("link.jpg: no such file (a dangling symbolic link to " + target + ")");
        assertThat(r.out()).contains("1 photo(s) not clustered (failed to load): link.jpg");
        assertThat(table(clusters)).hasSize(5).containsEntry("link.jpg", "NA");
    }

    @Test
    void badOptions_areOneLineErrors() throws IOException {
        Path photos = dir.resolve("photos");
        ForensicsGenerator.generate(photos, new GeneratorOptions(1, 2, 32, 32, 0.02, 90, 1));
        assertThat(Cli.run("forensics", photos.toString(), "--metric", "psnr").err())
                .contains("expected pce or ncc, got 'psnr'");
        assertThat(Cli.run("forensics", photos.toString(), "--size", "12").err())
                .contains("--size must be WIDTHxHEIGHT");
        assertThat(Cli.run("forensics", dir.resolve("nowhere").toString()).err()).contains("no such input directory");
        assertThat(Cli.run("forensics", photos.toString(), "--device", "sim").err())
                .contains("forensics runs on --device cpu or cuda");
        assertThat(Cli.run("generate", "forensics", "--out", dir.resolve("g").toString(), "--quality", "0").err())
                .contains("JPEG quality must be 1..100");
    }

    @Test
    void demo_generatesClustersAndMatchesTheTruth() throws IOException {
        Cli.Result r = Cli.run("demo", "--out", dir.toString());
        assertThat(r.code()).as(r.both()).isZero();
        assertThat(r.out()).contains("20 photos in 4 clusters").contains("adjusted Rand index 1.000");
        assertThat(Files.readAllLines(dir.resolve("clusters.tsv"))).hasSize(20);
        assertThat(dir.resolve("trace.json.gz")).isNotEmptyFile();
    }

    @Test
    void demo_syntheticVerifiesEveryPair() {
        Cli.Result r = Cli.run("demo", "--app", "synthetic", "--out", dir.toString());
        assertThat(r.code()).as(r.both()).isZero();
        assertThat(r.out()).contains("verified: all 11175 pairs once, values correct");
    }
}
