package io.rocket.apps.cli;

import io.rocket.apps.Cli;
import io.rocket.apps.Launcher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nothing computed is lost to an output: paths are checked before the first item, a refused run leaves existing
 * files as they were, and a run stopped by SIGTERM leaves every pair it reported on disk and says how to continue.
 */
class OutputSafetyTest {

    @TempDir
    static Path data;

    @TempDir
    Path dir;

    @BeforeAll
    static void generate() {
        SmallData.generate(data);
    }

    /** Every output option of every command, into a directory that does not exist. */
    @ParameterizedTest
    @ValueSource(strings = {"forensics --clusters", "forensics --matrix", "forensics --output", "forensics --errors",
            "forensics --summary-json", "forensics --trace", "phylogenetics --tree", "phylogenetics --matrix",
            "phylogenetics --nearest", "microscopy --fused", "microscopy --fused-png", "synthetic --output",
            "report --output"})
    void missingOutputDirectory_refusedBeforeTheFirstItem_exit2_optionAndDirectoryNamed(String commandAndOption) {
        String[] parts = commandAndOption.split(" ");
        Path missing = dir.resolve("nodir");
        String file = missing.resolve("out.tsv").toString();
        // The input directory does not exist either: the refusal names the output, so it came before any input.
        List<String> args = new ArrayList<>(List.of(parts[0]));
        switch (parts[0]) {
            case "synthetic" -> args.addAll(List.of("--items", "100000", "--compare-ms", "1000"));
            case "report" -> args.addAll(List.of("--trace", dir.resolve("no-trace.json").toString()));
            default -> args.add(dir.resolve("no-inputs").toString());
        }
        args.addAll(List.of(parts[1], file));
        Cli.Result r = Cli.run(args.toArray(String[]::new));
        assertThat(r.code()).as(r.both()).isEqualTo(2);
        assertThat(r.err()).as(r.both()).contains(parts[1] + " " + file).contains("no directory " + missing)
                .doesNotContain("no-inputs");
        assertThat(missing).doesNotExist();
    }

    @Test
    void outputThatIsADirectory_orOfAnUnknownFormat_refused() {
        Cli.Result r = Cli.run("synthetic", "--items", "4", "--output", dir.toString());
        assertThat(r.code()).as(r.both()).isEqualTo(2);
        assertThat(r.err()).contains("--output " + dir + ": is a directory");
        r = Cli.run("synthetic", "--items", "4", "--output", dir.resolve("pairs.csv").toString());
        assertThat(r.code()).as(r.both()).isEqualTo(2);
        assertThat(r.err()).contains("unknown format '.csv'");
    }

    /** A run refused by the runtime (here a host cache too small for one item) never touches existing outputs. */
    @Test
    void refusedRun_leavesExistingOutputsByteIdentical() throws IOException {
        Path tsv = dir.resolve("pairs.tsv");
        Path errors = dir.resolve("errors.tsv");
        Path npy = dir.resolve("pairs.npy");
        Path photos = data.resolve("photos");
        assertThat(Cli.run("forensics", photos.toString(), "--output", tsv.toString(), "--errors",
                errors.toString(), "--no-progress").code()).isZero();
        assertThat(Cli.run("forensics", photos.toString(), "--output", npy.toString(), "--no-progress").code())
                .isZero();
        byte[] before = Files.readAllBytes(tsv);
        byte[] errorsBefore = Files.readAllBytes(errors);
        byte[] npyBefore = Files.readAllBytes(npy);
        assertThat(before).hasSizeGreaterThan(100);

        Cli.Result r = Cli.run("forensics", photos.toString(), "--output", tsv.toString(), "--errors",
                errors.toString(), "--host-cache-size", "1K", "--no-progress");
        assertThat(r.code()).as(r.both()).isNotZero();
        assertThat(tsv).hasBinaryContent(before);
        assertThat(errors).hasBinaryContent(errorsBefore);
        r = Cli.run("forensics", photos.toString(), "--output", npy.toString(), "--host-cache-size", "1K",
                "--no-progress");
        assertThat(r.code()).as(r.both()).isNotZero();
        assertThat(npy).hasBinaryContent(npyBefore);
    }

    /** A run that finishes with no result at all still leaves its outputs, with their headers. */
    @Test
    void runWithoutResults_stillWritesTheHeader() throws IOException {
        Path tsv = dir.resolve("none.tsv");
        Cli.Result r = Cli.run("synthetic", "--items", "1", "--output", tsv.toString(), "--no-progress");
        assertThat(r.code()).as(r.both()).isZero();
        assertThat(Files.readAllLines(tsv)).containsExactly("i\tj\tleft\tright\tresult");
    }

    @Test
    void outputDash_pipesTheTsvAlone_theSummaryGoesToStderr() {
        Cli.Result r = Cli.run("synthetic", "--items", "12", "--output", "-", "--no-progress");
        assertThat(r.code()).as(r.both()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(1 + 66);
        assertThat(lines.get(0)).isEqualTo("i\tj\tleft\tright\tresult");
        assertThat(lines.subList(1, lines.size())).allSatisfy(l -> assertThat(l.split("\t")).hasSize(5));
        assertThat(r.err()).contains("synthetic: 12 items, 66 pairs (0 errors)");
        assertThat(Path.of("-")).doesNotExist();
    }

    @Test
    void quiet_printsOnlyResultsAndErrors() throws IOException {
        Cli.Result r = Cli.run("synthetic", "--items", "12", "--output", "-", "-q", "--progress-interval", "0.01");
        assertThat(r.code()).as(r.both()).isZero();
        assertThat(r.out().lines().count()).isEqualTo(67);
        assertThat(r.err()).isEmpty();
        Path tsv = dir.resolve("q.tsv");
        r = Cli.run("phylogenetics", data.resolve("prot").toString(), "--quiet", "--output", tsv.toString());
        assertThat(r.code()).as(r.both()).isZero();
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEmpty();
        assertThat(Files.readAllLines(tsv)).hasSize(1 + 6);
        r = Cli.run("phylogenetics", dir.resolve("missing").toString(), "-q");
        assertThat(r.code()).isNotZero();
        assertThat(r.err()).startsWith("rocket: ").contains("missing");
    }

    @Test
    void summary_isOneLineByDefault_theFiguresWithVerbose() {
        Cli.Result plain = Cli.run("synthetic", "--items", "12", "--no-progress");
        Cli.Result verbose = Cli.run("synthetic", "--items", "12", "--no-progress", "-v");
        assertThat(plain.code()).as(plain.both()).isZero();
        assertThat(plain.out().lines().toList()).hasSize(1).first().asString()
                .startsWith("synthetic: 12 items, 66 pairs (0 errors) in ");
        assertThat(verbose.out()).contains("synthetic: 12 items, 66 pairs").contains("cache device")
                .contains("mean step ms:").contains("busy s:");
    }

    /**
     * SIGTERM (a SLURM time limit, scancel) halfway: exit 143, one line saying how many pairs the TSV holds, and the
     * TSV holds exactly those, each line whole.
     */
    @Test
    @Timeout(120)
    void sigterm_leavesEveryPairOnDisk_exit143_andSaysHowToContinue() throws Exception {
        Path tsv = dir.resolve("pairs.tsv");
        Path log = dir.resolve("run.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                Launcher.class.getName(), "synthetic", "--items", "60", "--compare-ms", "10", "--device", "cpu:2",
                "--output", tsv.toString(), "--no-progress")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            // The TSV is written out every 2 s: wait until it holds a few hundred pairs of the 1,770.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (lines(tsv) < 150 && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(p.isAlive()).as("still running at %d lines", lines(tsv)).isTrue();
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(output).isEqualTo(143);
        Matcher m = Pattern.compile("rocket: stopped by SIGTERM; ([0-9,]+) of 1,770 pairs are in " + Pattern.quote(
                tsv.toString()) + "; to be able to continue a stopped run, give it --store DIR").matcher(output);
        assertThat(m.find()).as(output).isTrue();
        int reported = Integer.parseInt(m.group(1).replace(",", ""));
        List<String> lines = Files.readAllLines(tsv);
        assertThat(lines.get(0)).isEqualTo("i\tj\tleft\tright\tresult");
        assertThat(lines).hasSize(1 + reported);
        assertThat(reported).isBetween(150, 1769);
        Set<String> pairs = new HashSet<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t");
            assertThat(f).as(line).hasSize(5);
            assertThat(f[4]).hasSize(16);
            assertThat(pairs.add(f[0] + " " + f[1])).as(line).isTrue();
        }
    }

    private static long lines(Path file) throws IOException {
        if (!Files.exists(file)) {
            return 0;
        }
        try (var s = Files.lines(file)) {
            return s.count();
        }
    }
}
