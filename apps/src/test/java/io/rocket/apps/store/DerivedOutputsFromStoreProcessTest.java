package io.rocket.apps.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocket.apps.Cli;
import io.rocket.apps.LauncherProcess;
import io.rocket.apps.phylogenetics.PhyloGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The derived outputs of an interrupted run come from the store: a phylogenetics run with {@code --store},
 * {@code --matrix} and {@code --tree} is killed with SIGKILL mid-run (no matrix, no tree written yet); the same command
 * again takes the stored pairs, computes only the others, and writes the matrix and tree an uninterrupted run writes.
 */
class DerivedOutputsFromStoreProcessTest {
    private static final int TAXA = 90;
    private static final long PAIRS = TAXA * (TAXA - 1) / 2;

    @TempDir
    Path dir;

    private Process start(String name, List<String> args) throws IOException {
        return LauncherProcess.start(dir.resolve(name + ".log"), "256m", args);
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    @Test
    @Timeout(180)
    void killedMidRun_theSameCommandRebuildsMatrixAndTree_fromTheStore_computingOnlyTheRest() throws Exception {
        Path data = dir.resolve("data");
        PhyloGenerator.generate(data, TAXA, 0.5, 200, 3);
        Path store = dir.resolve("store");
        Path matrix = dir.resolve("matrix.phy");
        Path tree = dir.resolve("tree.nwk");
        Path summary = dir.resolve("summary.json");
        List<String> run = List.of("phylogenetics", data.toString(), "--k", "4", "--device", "cpu:1",
                "--host-threads", "1", "--no-progress", "--store", store.toString(), "--matrix", matrix.toString(),
                "--tree", tree.toString(), "--summary-json", summary.toString());

        Process first = start("first", run);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (size(store.resolve("records.bin")) < 4_000 && first.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(first.isAlive()).as(Files.readString(dir.resolve("first.log"))).isTrue();
        first.destroyForcibly().waitFor();
        assertThat(matrix).doesNotExist();
        assertThat(tree).doesNotExist();

        Process again = start("again", run);
        assertThat(again.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(again.exitValue()).as(Files.readString(dir.resolve("again.log"))).isZero();
        JsonNode s = new ObjectMapper().readTree(summary.toFile());
        long reused = s.get("pairs_reused").asLong();
        assertThat(reused).isPositive().isLessThan(PAIRS);
        assertThat(reused + s.get("pairs_computed").asLong()).isEqualTo(PAIRS);

        Path scratchMatrix = dir.resolve("scratch.phy");
        Path scratchTree = dir.resolve("scratch.nwk");
        Cli.Result r = Cli.run("phylogenetics", data.toString(), "--k", "4", "--no-progress", "--matrix",
                scratchMatrix.toString(), "--tree", scratchTree.toString());
        assertThat(r.code()).as(r.both()).isZero();
        assertThat(Files.readString(matrix)).isEqualTo(Files.readString(scratchMatrix));
        assertThat(Files.readString(tree)).isEqualTo(Files.readString(scratchTree));
    }
}
