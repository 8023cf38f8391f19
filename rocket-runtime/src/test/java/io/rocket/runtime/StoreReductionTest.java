package io.rocket.runtime;

import io.rocket.cluster.ClusterOptions;
import io.rocket.core.CacheSize;
import io.rocket.core.ResultSink;
import io.rocket.core.summary.RunSummary;
import io.rocket.results.journal.JournalOptions;
import io.rocket.results.reduce.Reduction;
import io.rocket.testkit.Cost;
import io.rocket.testkit.KeptReference;
import io.rocket.testkit.SyntheticApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reduction with a result store: the nodes send every result so that rank 0 stores them all and then reduces, so
 * a cluster's kept pairs equal the filter of the full result, and a later run with another reduction re-filters the
 * store computing no pair.
 */
class StoreReductionTest {
    private static final long SEED = 29;
    private static final int N = 36;
    private static final long PAIRS = (long) N * (N - 1) / 2;

    static {
        System.setProperty("java.net.preferIPv4Stack", "true");
    }

    @TempDir
    Path tmp;

    private static SyntheticApp app() {
        return new SyntheticApp(new SyntheticApp.Config(N, 64, Cost.ZERO, Cost.ZERO, Cost.ZERO, SEED));
    }

    private RocketOptions options(int topK) {
        return RocketOptions.defaults().withThreads(1, 1).withTileSize(4)
                .withCaches(new CacheSize(-1, 12), new CacheSize(-1, 6))
                .withJournal(JournalOptions.store(tmp.resolve("store"), "synthetic\n--seed=" + SEED))
                .withReduction(new Reduction(topK, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY));
    }

    private static Set<Long> expected(int topK) {
        return KeptReference.kept(N, (i, j) -> (double) SyntheticApp.expected(SEED, i, j), topK,
                Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, false);
    }

    @Test
    @Timeout(120)
    void clusterStoresEveryPair_keepsTheTopK_andAnotherKRefiltersTheStoreComputingNothing() throws Exception {
        Kept kept = new Kept();
        String group = UUID.randomUUID().toString();
        List<RunSummary> all = InJvmClusterTest.runCluster(3, r -> app(), options(2),
                r -> ClusterOptions.loopback(group, r, 3), kept);
        assertThat(kept.pairs).isEqualTo(expected(2));
        assertThat(kept.duplicates).isZero();
        assertThat(all.get(0).pairs + all.get(0).errors).isEqualTo(PAIRS);

        Kept again = new Kept();
        SyntheticApp app = app();
        RunSummary refiltered = Rocket.run(app, app.keys(), options(5), again);
        assertThat(refiltered.pairsComputed).isZero();
        assertThat(refiltered.pairsReused).isEqualTo(PAIRS);
        assertThat(again.pairs).isEqualTo(expected(5));
        assertThat(again.duplicates).isZero();
    }

    /** The pairs written, and duplicates. */
    private static final class Kept implements ResultSink<Integer, Long> {
        final Set<Long> pairs = new HashSet<>();
        long duplicates;

        @Override
        public synchronized void accept(int i, int j, Integer left, Integer right, Long result) {
            assertThat(result).isEqualTo(SyntheticApp.expected(SEED, i, j));
            if (!pairs.add(KeptReference.pair(i, j))) {
                duplicates++;
            }
        }

        @Override
        public void failed(int i, int j, Integer left, Integer right, Throwable error) {
            throw new AssertionError("pair (" + i + ", " + j + ") failed: " + error);
        }
    }
}
