package io.rocket.apps.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocket.apps.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --shared-output} on 4 local nodes: the parts every node writes (TSV.gz here) and the dense {@code .npy}
 * they all write into equal a single node's output; a rank killed with SIGKILL mid-run leaves a part rank 0 cuts
 * back to what it counted done, so the parts still hold every pair exactly once; and the output guarantees hold: a
 * refused run or a cluster that never forms touches no file, and rank 0 receives a small fraction of the bytes.
 */
class SharedOutputProcessTest {
    private static final int NODES = 4;
    private static final int ITEMS = 500;
    private static final long PAIRS = (long) ITEMS * (ITEMS - 1) / 2;

    @TempDir
    Path dir;

    private List<String> synthetic(String compareMs, Path output, String... more) {
        List<String> args = new ArrayList<>(List.of("synthetic", "--items", "" + ITEMS, "--item-bytes", "16",
                "--device", "sim", "--compare-ms", compareMs, "--no-distributed-cache", "--seed", "5",
                "--no-progress", "--output", output.toString()));
        args.addAll(List.of(more));
        return args;
    }

    private void runAll(LocalRanks ranks, String run, List<String> args) throws Exception {
        List<Process> all = ranks.start(run, args);
        assertThat(LocalRanks.awaitAll(all, 120)).as(ranks.log(run, 0)).isTrue();
        for (int r = 0; r < NODES; r++) {
            assertThat(all.get(r).exitValue()).as("rank %d: %s", r, ranks.log(run, r)).isZero();
        }
    }

    @Test
    @Timeout(300)
    void partsAndDenseMatrix_ofFourNodes_equalOneNodesOutput_andRankZeroReceivesAFraction() throws Exception {
        LocalRanks ranks = new LocalRanks(NODES, dir, "256m");
        Path single = dir.resolve("single.tsv");
        Path singleNpy = dir.resolve("single.npy");
        assertThat(Cli.run(synthetic("0.001", single).toArray(String[]::new)).code()).isZero();
        assertThat(Cli.run(synthetic("0.001", singleNpy).toArray(String[]::new)).code()).isZero();

        Path shared = dir.resolve("shared.tsv.gz");
        Path summary = dir.resolve("shared.json");
        runAll(ranks, "tsv", synthetic("0.001", shared, "--shared-output", "--summary-json", summary.toString()));
        Path parts = dir.resolve("shared.tsv.gz.parts");
        JsonNode manifest = new ObjectMapper().readTree(parts.resolve("manifest.json").toFile());
        assertThat(manifest.get("complete").asBoolean()).isTrue();
        assertThat(manifest.get("parts")).hasSize(NODES);
        List<String> lines = new ArrayList<>();
        for (JsonNode part : manifest.get("parts")) {
            Path file = parts.resolve(part.get("file").asText());
            assertThat(Files.size(file)).isEqualTo(part.get("bytes").asLong());
            List<String> text = gunzip(file);
            assertThat(text.get(0)).isEqualTo("i\tj\tleft\tright\tresult");
            assertThat(text.size()).as("rank %s computed some", part.get("rank")).isGreaterThan(1);
            lines.addAll(text.subList(1, text.size()));
        }
        List<String> expected = new ArrayList<>(Files.readAllLines(single));
        expected.remove(0);
        expected.sort(null);
        lines.sort(null); // sorted rather than containsExactlyInAnyOrder, which is quadratic in the lines
        assertThat(lines).isEqualTo(expected);
        JsonNode s = new ObjectMapper().readTree(summary.toFile());
        long received = s.get("cluster").get("result_bytes_received").asLong();
        // Every result would be some 45 bytes on the wire; acknowledged runs of pairs are a few per row.
        assertThat(received).isPositive().isLessThan(PAIRS * 45 / 10);

        Path npy = dir.resolve("shared.npy");
        runAll(ranks, "npy", synthetic("0.001", npy, "--shared-output"));
        assertThat(npy).hasSameBinaryContentAs(singleNpy);
    }

    @Test
    @Timeout(300)
    void aRankKilledMidRun_itsPartIsCutBack_everyPairOnceInTheParts() throws Exception {
        LocalRanks ranks = new LocalRanks(NODES, dir, "256m");
        Path output = dir.resolve("pairs.tsv");
        Path summary = dir.resolve("s.json");
        List<Process> all = ranks.start("loss", synthetic("0.15", output, "--shared-output", "--failure-timeout",
                "3", "--summary-json", summary.toString()));
        Path victim = dir.resolve("pairs.tsv.parts").resolve("part-00002.tsv");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while ((!Files.exists(victim) || Files.size(victim) < 20_000) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(all.get(2).isAlive()).as(ranks.log("loss", 2)).isTrue();
        all.get(2).destroyForcibly().waitFor(); // kill -9: what it wrote after its last acknowledgement is not counted
        assertThat(all.get(0).waitFor(120, TimeUnit.SECONDS)).isTrue();
        LocalRanks.awaitAll(all, 30);
        String rank0 = ranks.log("loss", 0);
        assertThat(all.get(0).exitValue()).as(rank0).isZero();
        assertThat(rank0).contains("lost rank 2");

        JsonNode manifest = new ObjectMapper().readTree(dir.resolve("pairs.tsv.parts/manifest.json").toFile());
        Set<String> pairs = new HashSet<>();
        long lines = 0;
        for (JsonNode part : manifest.get("parts")) {
            assertThat(part.get("lost").asBoolean()).isEqualTo(part.get("rank").asInt() == 2);
            List<String> text = Files.readAllLines(dir.resolve("pairs.tsv.parts").resolve(part.get("file").asText()));
            for (String line : text.subList(1, text.size())) {
                String[] f = line.split("\t");
                assertThat(f).as(line).hasSize(5);
                assertThat(pairs.add(f[0] + " " + f[1])).as("pair %s written twice", line).isTrue();
                lines++;
            }
        }
        assertThat(lines).isEqualTo(PAIRS);
    }

    @Test
    @Timeout(300)
    void sigtermToEveryRank_leavesWholeLinesInTheParts_eachPairOnce_andAnIncompleteManifest() throws Exception {
        LocalRanks ranks = new LocalRanks(NODES, dir, "256m");
        Path output = dir.resolve("pairs.tsv");
        List<Process> all = ranks.start("term", synthetic("0.15", output, "--shared-output"));
        Path parts = dir.resolve("pairs.tsv.parts");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (partBytes(parts) < 300_000 && all.get(0).isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        for (int r = NODES - 1; r >= 0; r--) {
            all.get(r).destroy(); // SIGTERM to every rank, as a scheduler ends a job
        }
        assertThat(LocalRanks.awaitAll(all, 60)).isTrue();
        String rank0 = ranks.log("term", 0);
        assertThat(all.get(0).exitValue()).as(rank0).isEqualTo(143);
        assertThat(rank0).contains("stopped by SIGTERM").contains("the parts in " + parts)
                .contains("the same command again starts anew").doesNotContain("give it --store");
        JsonNode manifest = new ObjectMapper().readTree(parts.resolve("manifest.json").toFile());
        assertThat(manifest.get("complete").asBoolean()).isFalse();
        Set<String> pairs = new HashSet<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(parts, "part-*.tsv")) {
            for (Path part : files) {
                List<String> text = Files.readAllLines(part);
                assertThat(text.get(0)).isEqualTo("i\tj\tleft\tright\tresult");
                for (String line : text.subList(1, text.size())) {
                    String[] f = line.split("\t");
                    assertThat(f).as("%s: %s", part, line).hasSize(5);
                    assertThat(f[4]).as("%s: %s", part, line).hasSize(16);
                    assertThat(pairs.add(f[0] + " " + f[1])).as("pair %s written twice", line).isTrue();
                }
            }
        }
        assertThat((long) pairs.size()).isPositive().isLessThan(PAIRS);
    }

    private static long partBytes(Path parts) throws IOException {
        if (!Files.isDirectory(parts)) {
            return 0;
        }
        long bytes = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(parts, "part-*")) {
            for (Path part : files) {
                bytes += Files.size(part);
            }
        }
        return bytes;
    }

    @Test
    @Timeout(120)
    void refusedRun_andAClusterThatNeverForms_touchNoFile() throws Exception {
        Path output = dir.resolve("pairs.tsv");
        Path parts = dir.resolve("pairs.tsv.parts");
        Files.createDirectories(parts);
        Path old = Files.writeString(parts.resolve("part-00001.tsv"), "i\tj\tleft\tright\tresult\n0\t1\ta\tb\tc\n");
        Path npy = Files.writeString(dir.resolve("m.npy"), "an earlier run's matrix");

        LocalRanks ranks = new LocalRanks(NODES, dir, "256m");
        Process refused = ranks.start(0, ProcessClusterTest.hosts(NODES), "refused",
                synthetic("0.001", output, "--shared-output", "--store", dir.resolve("store").toString()));
        assertThat(refused.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(refused.exitValue()).isEqualTo(2);
        assertThat(ranks.log("refused", 0)).contains("--shared-output: a result store keeps every result on rank 0");

        // Rank 0 alone: the cluster never forms, so nothing is opened.
        for (Path out : List.of(output, dir.resolve("m.npy"))) {
            Process alone = ranks.start(0, ProcessClusterTest.hosts(NODES), "alone",
                    synthetic("0.001", out, "--shared-output", "--join-timeout", "2"));
            assertThat(alone.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(alone.exitValue()).as(ranks.log("alone", 0)).isNotZero();
        }
        assertThat(old).hasContent("i\tj\tleft\tright\tresult\n0\t1\ta\tb\tc\n");
        assertThat(parts.resolve("manifest.json")).doesNotExist();
        assertThat(npy).hasContent("an earlier run's matrix");
        assertThat(output).doesNotExist();
    }

    private static List<String> gunzip(Path file) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(Files.readAllBytes(file)))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
