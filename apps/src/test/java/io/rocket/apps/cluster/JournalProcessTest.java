package io.rocket.apps.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocket.apps.Cli;
import io.rocket.apps.LauncherProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs with {@code --journal} killed with SIGKILL in the middle (a single-node process, and rank 0 of a cluster of
 * three processes), then resumed with {@code --resume}: the outputs equal an uninterrupted run's (sorted), and the
 * summary counts the pairs resumed and computed.
 */
class JournalProcessTest {
    private static final int ITEMS = 150;
    private static final long PAIRS = ITEMS * (ITEMS - 1) / 2;
    /** 11,175 compares of 1 ms on 4 (single node) or 6 (cluster) devices: a few seconds to kill it in. */
    private static final List<String> APP = List.of("synthetic", "--items", "" + ITEMS, "--item-bytes", "64",
            "--compare-ms", "1", "--seed", "5", "--host-threads", "1");

    @TempDir
    Path dir;

    private Process start(String name, List<String> args) throws IOException {
        return LauncherProcess.start(dir.resolve(name + ".log"), "256m", args);
    }

    private static void await(BooleanSupplier condition, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    /** Whether the journal holds a record: some pairs are durably written. */
    private static boolean journaled(Path journal) {
        try {
            return Files.size(journal.resolve("records.bin")) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    private List<String> args(String... more) {
        List<String> args = new ArrayList<>(APP);
        args.addAll(List.of(more));
        return args;
    }

    /** The uninterrupted run's pairs (costs do not change results, so it runs without them). */
    private List<String> reference() throws IOException {
        Path ref = dir.resolve("reference.tsv");
        Cli.Result r = Cli.run("synthetic", "--items", "" + ITEMS, "--seed", "5", "--output", ref.toString());
        assertThat(r.code()).as(r.both()).isZero();
        return ProcessClusterTest.sorted(ref);
    }

    private static void assertResumedCounts(Path summaryJson) throws IOException {
        JsonNode summary = new ObjectMapper().readTree(summaryJson.toFile());
        long resumed = summary.get("pairs_resumed").asLong();
        assertThat(resumed).isPositive();
        assertThat(summary.get("pairs_computed").asLong()).isPositive();
        assertThat(resumed + summary.get("pairs_computed").asLong()).isEqualTo(PAIRS);
        assertThat(summary.get("pairs").asLong()).isEqualTo(PAIRS);
    }

    @Test
    @Timeout(120)
    void singleNode_killedMidRun_resumesToTheUninterruptedOutput() throws Exception {
        Path journal = dir.resolve("journal");
        Path out = dir.resolve("pairs.tsv");
        Path summary = dir.resolve("summary.json");
        List<String> run = args("--device", "cpu:4", "--output", out.toString(), "--journal", journal.toString(),
                "--summary-json", summary.toString());
        Process p = start("first", run);
        await(() -> journaled(journal) || !p.isAlive(), 60);
        assertThat(p.isAlive()).as(Files.readString(dir.resolve("first.log"))).isTrue();
        p.destroyForcibly().waitFor();
        assertThat(summary).doesNotExist();

        run.add("--resume");
        Process again = start("resumed", run);
        assertThat(again.waitFor(90, TimeUnit.SECONDS)).isTrue();
        assertThat(again.exitValue()).as(Files.readString(dir.resolve("resumed.log"))).isZero();
        assertThat(ProcessClusterTest.sorted(out)).hasSize((int) PAIRS + 1).isEqualTo(reference());
        assertResumedCounts(summary);
    }

    @Test
    @Timeout(180)
    void cluster_rankZeroKilledMidRun_othersStop_andAllThreeResumeToTheUninterruptedOutput() throws Exception {
        int nodes = 3;
        Path journal = dir.resolve("journal");
        Path out = dir.resolve("pairs.tsv");
        Path summary = dir.resolve("summary.json");
        // Every rank gets the same command line, as from SLURM; only rank 0 journals and writes.
        List<String> run = args("--device", "cpu:2", "--output", out.toString(), "--journal", journal.toString(),
                "--summary-json", summary.toString(), "--nodes", "" + nodes);
        String hosts = ProcessClusterTest.hosts(nodes);
        List<Process> first = new ArrayList<>();
        for (int r = 0; r < nodes; r++) {
            first.add(start("first-" + r, withRank(run, r, hosts)));
        }
        await(() -> journaled(journal) || !first.get(0).isAlive(), 90);
        assertThat(first.get(0).isAlive()).as(Files.readString(dir.resolve("first-0.log"))).isTrue();
        first.get(0).destroyForcibly().waitFor();
        for (int r = 1; r < nodes; r++) {
            Process p = first.get(r);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("rank %d stopped", r).isTrue();
            assertThat(p.exitValue()).as(Files.readString(dir.resolve("first-" + r + ".log"))).isNotZero();
        }

        run.add("--resume");
        String newHosts = ProcessClusterTest.hosts(nodes);
        List<Process> again = new ArrayList<>();
        for (int r = 0; r < nodes; r++) {
            again.add(start("resumed-" + r, withRank(run, r, newHosts)));
        }
        for (int r = 0; r < nodes; r++) {
            Process p = again.get(r);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("rank %d finished", r).isTrue();
            assertThat(p.exitValue()).as(Files.readString(dir.resolve("resumed-" + r + ".log"))).isZero();
        }
        assertThat(ProcessClusterTest.sorted(out)).hasSize((int) PAIRS + 1).isEqualTo(reference());
        assertResumedCounts(summary);
    }

    private static List<String> withRank(List<String> run, int rank, String hosts) {
        List<String> args = new ArrayList<>(run);
        args.addAll(List.of("--rank", "" + rank, "--hosts", hosts));
        return args;
    }
}
