package io.rocket.apps.microscopy;

import io.rocket.apps.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class MicroscopyCommandTest {

    @TempDir
    Path tmp;

    private Path generate(int particles, double localizations, long seed) {
        Path dir = tmp.resolve("particles");
        Cli.Result g = Cli.run("generate", "microscopy", "--out", dir.toString(), "--particles", "" + particles,
                "--dol", "0.7", "--localizations", "" + localizations, "--seed", "" + seed);
        assertThat(g.code()).as(g.both()).isZero();
        return dir;
    }

    @Test
    void microscopy_generatedParticles_registersFusesAndMeetsTheTruth() throws Exception {
        Path dir = generate(10, 20, 4);
        Path pairs = tmp.resolve("pairs.tsv");
        Path fused = tmp.resolve("fused.csv");
        Path png = tmp.resolve("fused.png");
        Cli.Result r = Cli.run("microscopy", dir.toString(), "--device", "cpu:2", "--output", pairs.toString(),
                "--fused", fused.toString(), "--fused-png", png.toString());
        assertThat(r.code()).as(r.both()).isZero();
        List<String> lines = Files.readAllLines(pairs);
        assertThat(lines.get(0)).isEqualTo("i\tj\tleft\tright\tscore\ttx\tty\ttheta");
        assertThat(lines).hasSize(1 + 45);
        Matcher m = Pattern.compile("truth: (\\d+) of 45 pairs").matcher(r.out());
        assertThat(m.find()).as(r.out()).isTrue();
        assertThat(Integer.parseInt(m.group(1))).as(r.out()).isGreaterThanOrEqualTo(41);
        assertThat(r.out()).contains("fusion: 10 of 10 particles placed").contains("10 of 10 fused poses within 3");
        long localizations = 0;
        for (int k = 0; k < 10; k++) {
            localizations += Files.readAllLines(dir.resolve(String.format("particle_%03d.json", k))).size() - 2;
        }
        assertThat(Files.readAllLines(fused)).hasSize((int) (1 + localizations));
        assertThat(ImageIO.read(png.toFile()).getWidth()).isGreaterThan(100);
    }

    @Test
    void microscopy_badParticleFiles_failAloneWithTheirNamesAndExit3() throws Exception {
        Path dir = generate(3, 6, 5);
        Files.writeString(dir.resolve("broken.json"), "[{\"x\": 1, \"y\": 2, \"sigma\": 3},");
        Files.writeString(dir.resolve("empty.csv"), "x,y,sigma\n");
        Files.writeString(dir.resolve("nan.csv"), "1,2,3\nNaN,1,1\n");
        Files.writeString(dir.resolve("negative.json"), "[{\"x\": 1, \"y\": 2, \"sigma\": -3}]");
        Path pairs = tmp.resolve("pairs.tsv");
        Cli.Result r = Cli.run("microscopy", dir.toString(), "--device", "cpu", "--output", pairs.toString(),
                "--fused", tmp.resolve("fused.csv").toString());
        assertThat(r.code()).as(r.both()).isEqualTo(3);
        String all = r.out() + r.err();
        assertThat(all).contains("broken.json: malformed JSON").contains("empty.csv: no localizations")
                .contains("nan.csv: line 2: position (NaN, 1.0) is not finite")
                .contains("negative.json: element 0: sigma -3.0 is not a positive number");
        // The three good particles: their three pairs are all there.
        assertThat(Files.readAllLines(pairs)).hasSize(1 + 3);
        assertThat(r.out()).contains("fusion: 3 of 7 particles placed");
    }

    @Test
    void microscopy_againstReferences_registersEachQueryWithEachReference_andRefusesFusion() throws Exception {
        Path dir = generate(5, 6, 8);
        Path queries = Files.createDirectories(tmp.resolve("queries"));
        Path references = Files.createDirectories(tmp.resolve("references"));
        for (int k = 0; k < 5; k++) {
            String name = String.format("particle_%03d.json", k);
            Files.copy(dir.resolve(name), (k < 2 ? queries : references).resolve(name));
        }
        Path pairs = tmp.resolve("pairs.tsv");
        Cli.Result r = Cli.run("microscopy", queries.toString(), "--against", references.toString(), "--device",
                "cpu", "--output", pairs.toString());
        assertThat(r.code()).as(r.both()).isZero();
        List<String> lines = Files.readAllLines(pairs);
        assertThat(lines).hasSize(1 + 2 * 3);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t");
            assertThat(Files.exists(queries.resolve(f[2])) != Files.exists(queries.resolve(f[3]))).as(line).isTrue();
        }
        assertThat(r.out()).doesNotContain("fusion:");

        Cli.Result refused = Cli.run("microscopy", queries.toString(), "--against", references.toString(),
                "--device", "cpu", "--fused", tmp.resolve("fused.csv").toString());
        assertThat(refused.code()).isNotZero();
        assertThat(refused.err().strip().lines().toList()).hasSize(1).first().asString()
                .contains("--fused and --fused-png need every pair of the particles");
    }

    @Test
    void microscopy_simDevice_isRefusedWithOneLine() {
        Path dir = generate(2, 5, 6);
        Cli.Result r = Cli.run("microscopy", dir.toString(), "--device", "sim");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("use --device cpu or cuda");
    }

    @Test
    void generate_sameSeed_sameFilesAndTruthInDegrees() throws Exception {
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        for (Path d : new Path[]{a, b}) {
            assertThat(Cli.run("generate", "microscopy", "--out", d.toString(), "--particles", "3", "--seed", "7",
                    "--localizations", "5", "--format", "csv").code()).isZero();
        }
        assertThat(Files.readAllBytes(a.resolve("particle_001.csv"))).isEqualTo(Files.readAllBytes(
                b.resolve("particle_001.csv")));
        List<String> truth = Files.readAllLines(a.resolve("truth.tsv"));
        assertThat(truth).hasSize(3);
        String[] f = truth.get(0).split("\t");
        assertThat(f[0]).isEqualTo("particle_000.csv");
        assertThat(Double.parseDouble(f[1])).isBetween(0.0, 360.0);
        assertThat(Math.abs(Double.parseDouble(f[2]))).isLessThanOrEqualTo(5.0);
        assertThat(Files.readAllLines(a.resolve("template.tsv"))).hasSize(Template.standard().size());
    }
}
