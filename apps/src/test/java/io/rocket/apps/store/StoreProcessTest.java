package io.rocket.apps.store;

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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run with {@code --store} killed with SIGKILL in the middle, then the same command again: it takes the pairs the
 * store kept, computes the rest, and writes the output of an uninterrupted run.
 */
class StoreProcessTest {
    private static final int ITEMS = 150;
    private static final long PAIRS = ITEMS * (ITEMS - 1) / 2;
    /** 11,175 compares of 1 ms on 4 devices: a few seconds to kill it in. */
    private static final List<String> APP = List.of("synthetic", "--items", "" + ITEMS, "--item-bytes", "64",
            "--compare-ms", "1", "--seed", "5", "--host-threads", "1", "--device", "cpu:4");

    @TempDir
    Path dir;

    private Process start(String name, List<String> args) throws IOException {
        return LauncherProcess.start(dir.resolve(name + ".log"), "256m", args);
    }

    private static boolean stored(Path store) {
        try {
            return Files.size(store.resolve("records.bin")) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static List<String> sorted(Path file) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        lines.sort(null);
        return lines;
    }

    @Test
    @Timeout(120)
    void killedMidRun_theSameCommandContinues_toTheUninterruptedOutput() throws Exception {
        Path store = dir.resolve("store");
        Path out = dir.resolve("pairs.tsv");
        Path summary = dir.resolve("summary.json");
        List<String> run = new ArrayList<>(APP);
        run.addAll(List.of("--output", out.toString(), "--store", store.toString(), "--summary-json",
                summary.toString()));
        Process p = start("first", run);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!stored(store) && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(p.isAlive()).as(Files.readString(dir.resolve("first.log"))).isTrue();
        p.destroyForcibly().waitFor();
        assertThat(summary).doesNotExist();

        Process again = start("again", run);
        assertThat(again.waitFor(90, TimeUnit.SECONDS)).isTrue();
        assertThat(again.exitValue()).as(Files.readString(dir.resolve("again.log"))).isZero();

        Path reference = dir.resolve("reference.tsv");
        Cli.Result r = Cli.run("synthetic", "--items", "" + ITEMS, "--seed", "5", "--output", reference.toString());
        assertThat(r.code()).as(r.both()).isZero();
        assertThat(sorted(out)).hasSize((int) PAIRS + 1).isEqualTo(sorted(reference));
        JsonNode s = new ObjectMapper().readTree(summary.toFile());
        long reused = s.get("pairs_reused").asLong();
        assertThat(reused).isPositive().isLessThan(PAIRS);
        assertThat(reused + s.get("pairs_computed").asLong()).isEqualTo(PAIRS);
        assertThat(s.get("pairs").asLong()).isEqualTo(PAIRS);
    }

    /**
     * Two processes on one store: while the first runs, a second run adding other items is refused in one line
     * naming the first's pid, and leaves the store alone; once the first is killed, its lock file blocks nothing.
     */
    @Test
    @Timeout(120)
    void aSecondProcessOnTheSameStore_isRefusedNamingTheFirst_andAKilledHoldersLockBlocksNothing() throws Exception {
        Path store = dir.resolve("store");
        List<String> run = new ArrayList<>(APP);
        run.addAll(List.of("--store", store.toString()));
        Process p = start("first", run);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!stored(store) && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(p.isAlive()).as(Files.readString(dir.resolve("first.log"))).isTrue();
        Cli.Result second = Cli.run("synthetic", "--items", "" + (ITEMS + 10), "--item-bytes", "64", "--seed", "5",
                "--store", store.toString());
        assertThat(p.isAlive()).isTrue();
        assertThat(second.code()).as(second.both()).isEqualTo(1);
        assertThat(second.err().strip()).as(second.both())
                .startsWith("rocket: error: --store " + store + ": in use by another run (pid " + p.pid()
                        + " on host ")
                .doesNotContain("\n");
        p.destroyForcibly().waitFor();

        Path summary = dir.resolve("summary.json");
        Cli.Result after = Cli.run("synthetic", "--items", "" + ITEMS, "--item-bytes", "64", "--seed", "5",
                "--store", store.toString(), "--summary-json", summary.toString());
        assertThat(after.code()).as(after.both()).isZero();
        JsonNode s = new ObjectMapper().readTree(summary.toFile());
        assertThat(s.get("pairs_reused").asLong()).isPositive();
        assertThat(s.get("pairs_reused").asLong() + s.get("pairs_computed").asLong()).isEqualTo(PAIRS);
    }
}
