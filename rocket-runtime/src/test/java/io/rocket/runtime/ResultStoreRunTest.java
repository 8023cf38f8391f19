package io.rocket.runtime;

import io.rocket.core.CacheSize;
import io.rocket.core.summary.PerformanceModel;
import io.rocket.core.summary.RunSummary;
import io.rocket.cluster.ClusterOptions;
import io.rocket.results.journal.JournalOptions;
import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.testkit.SyntheticCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs with a result store ({@code --store}) through {@link Rocket#run}: a grown collection computes only its new
 * pairs and delivers every pair once with the right value, on one node and on an in-JVM cluster whose rank 0 keeps
 * the store; the same items again compute nothing.
 */
class ResultStoreRunTest {
    private static final long SEED = 11;

    static {
        System.setProperty("java.net.preferIPv4Stack", "true");
    }

    @TempDir
    Path tmp;

    private static SyntheticApp app(int n) {
        return new SyntheticApp(new SyntheticApp.Config(n, 64, Cost.ZERO, Cost.ZERO, Cost.ZERO, SEED));
    }

    private RocketOptions options() {
        return RocketOptions.defaults().withThreads(2, 1).withTileSize(4)
                .withCaches(new CacheSize(-1, 12), new CacheSize(-1, 8))
                .withJournal(JournalOptions.store(tmp.resolve("store"), "synthetic\n--seed=" + SEED));
    }

    /** One node over {@code n} items; checks that every pair arrived once with its value. */
    private RunSummary single(int n) throws Exception {
        SyntheticApp app = app(n);
        SyntheticCheck check = new SyntheticCheck(SEED, n, true);
        RunSummary summary = Rocket.run(app, app.keys(), options(), check);
        assertThat(check.problem()).as("%d items", n).isNull();
        assertThat(summary.pairs).isEqualTo(PerformanceModel.pairs(n));
        return summary;
    }

    @Test
    @Timeout(60)
    void singleNode_grownCollection_computesOnlyTheNewPairs_thenNone() throws Exception {
        RunSummary first = single(40);
        assertThat(first.pairsComputed).isEqualTo(780);
        assertThat(first.pairsReused).isZero();

        RunSummary grown = single(60);
        assertThat(grown.pairsComputed).isEqualTo(1770 - 780);
        assertThat(grown.pairsReused).isEqualTo(780);

        RunSummary again = single(60);
        assertThat(again.pairsComputed).isZero();
        assertThat(again.pairsReused).isEqualTo(1770);
        assertThat(again.loads).isZero();
    }

    @Test
    @Timeout(120)
    void cluster_rankZeroKeepsTheStore_andAGrownCollectionComputesOnlyTheNewPairs() throws Exception {
        single(40);
        int n = 60;
        int nodes = 3;
        String group = UUID.randomUUID().toString();
        SyntheticCheck check = new SyntheticCheck(SEED, n, true);
        List<RunSummary> all = InJvmClusterTest.runCluster(nodes, r -> app(n), options(),
                r -> ClusterOptions.loopback(group, r, nodes), check);
        assertThat(check.problem()).isNull();
        RunSummary rank0 = all.get(0);
        assertThat(rank0.pairs).isEqualTo(1770);
        assertThat(rank0.pairsReused).isEqualTo(780);
        assertThat(rank0.pairsComputed).isEqualTo(1770 - 780);
        long ran = all.stream().skip(1).mapToLong(s -> s.pairsComputed).sum();
        assertThat(ran).as("the other ranks computed pairs too").isPositive();

        // The cluster's results are in the store: one node over the same items computes nothing.
        RunSummary after = single(n);
        assertThat(after.pairsComputed).isZero();
        assertThat(after.pairsReused).isEqualTo(1770);
    }
}
