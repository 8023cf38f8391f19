package io.rocket.apps.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * A cluster run of more items than pair bitmaps indexed by {@code int} could track (65,536): 70,000 items, a few
 * queries against the rest, {@code --top-k} and {@code --store}, on 4 local nodes. Rank 0 is killed with SIGKILL in
 * the middle; the same command again takes the stored pairs, computes the rest, and rank 0 checks that exactly the
 * pairs the synthetic formula's top-k keeps arrived, each once. (The full-size check, 100,000 items and 10⁸ pairs, is
 * {@code scripts/bench scale}.)
 */
class AboveTheOldCapProcessTest {
    private static final int NODES = 4;
    private static final int ITEMS = 70_000;
    private static final int QUERIES = 6;

    @TempDir
    Path dir;

    private LocalRanks ranks() {
        return new LocalRanks(NODES, dir, "384m");
    }

    /**
     * Whether the store holds a good part of the run: it first defines the items (some 3.2 MB for 70,000), then about
     * 16 bytes a pair, so 6 MB is some 150,000 of the 419,964 pairs.
     */
    private static boolean stored(Path store) {
        try {
            return Files.size(store.resolve("records.bin")) > 6_000_000;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    @Timeout(300)
    void seventyThousandItems_onFourNodes_withAStore_resumeAfterRankZeroIsKilled_toTheFormulasTopK()
            throws Exception {
        Path store = dir.resolve("store");
        Path summary = dir.resolve("summary.json");
        List<String> args = List.of("synthetic", "--items", "" + ITEMS, "--queries", "" + QUERIES,
                "--item-bytes", "16", "--device", "sim", "--compare-ms", "0.02", "--no-distributed-cache", "--seed", "9", "--top-k", "3",
                "--store", store.toString(), "--output", dir.resolve("top.tsv").toString(),
                "--summary-json", summary.toString(), "--verify");

        List<Process> first = ranks().start("first", args);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!stored(store) && first.get(0).isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(first.get(0).isAlive()).as(ranks().log("first", 0)).isTrue();
        first.get(0).destroyForcibly().waitFor(); // kill -9 of rank 0
        LocalRanks.awaitAll(first, 60); // a job scheduler ends the rest of a job whose rank 0 died
        assertThat(summary).doesNotExist();

        List<Process> again = ranks().start("again", args);
        for (int r = 0; r < NODES; r++) {
            assertThat(again.get(r).waitFor(180, TimeUnit.SECONDS)).as("rank %d ended", r).isTrue();
        }
        String rank0 = ranks().log("again", 0);
        assertThat(again.get(0).exitValue()).as(rank0).isZero();
        assertThat(rank0).containsPattern("verified: all [0-9]+ kept pairs once, values correct");
        JsonNode s = new ObjectMapper().readTree(summary.toFile());
        long pairs = (long) QUERIES * (ITEMS - QUERIES);
        assertThat(s.get("pairs").asLong()).isEqualTo(pairs);
        assertThat(s.get("pairs_reused").asLong()).isPositive().isLessThan(pairs);
        assertThat(s.get("pairs_reused").asLong() + s.get("pairs_computed").asLong()).isEqualTo(pairs);
    }
}
