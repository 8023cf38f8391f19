package io.rocket.runtime;

import io.rocket.cluster.ClusterOptions;
import io.rocket.cluster.Faults;
import io.rocket.core.CacheSize;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.core.summary.RunSummary;
import io.rocket.results.journal.JournalOptions;
import io.rocket.results.reduce.Reduction;
import io.rocket.testkit.Cost;
import io.rocket.testkit.KeptReference;
import io.rocket.testkit.SyntheticApp;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reduction on the nodes of real runs (the synthetic app, whose result {@code v(i) XOR v(j)} is its own score): on
 * one node and on in-JVM clusters of 2–4 nodes, with a node lost mid-run, what rank 0 writes equals the same filter
 * applied to the full result, each kept pair once, and the run still completes every pair.
 */
class ReductionClusterTest {

    static {
        System.setProperty("java.net.preferIPv4Stack", "true");
    }

    private static final long SEED = 23;

    private static SyntheticApp app(int n) {
        return new SyntheticApp(new SyntheticApp.Config(n, 64, Cost.ZERO, Cost.ZERO, Cost.parse("0.05"), SEED));
    }

    private static RocketOptions options(Reduction reduction) {
        return RocketOptions.defaults().withThreads(1, 1).withTileSize(4)
                .withCaches(new CacheSize(-1, 12), new CacheSize(-1, 6)).withReduction(reduction);
    }

    private static double score(int i, int j) {
        return (double) SyntheticApp.expected(SEED, i, j);
    }

    private static Set<Long> expected(int n, Reduction r, boolean smallerIsBetter) {
        return KeptReference.kept(n, ReductionClusterTest::score, r.topK(), r.minScore(), r.maxScore(),
                smallerIsBetter);
    }

    /** A band from fractions of the score range (scores are 64-bit values, from -2^63 to 2^63). */
    private static Reduction reduction(int k, int lowPercent, int widthPercent) {
        double range = Math.pow(2, 64);
        double min = lowPercent == 0 ? Double.NEGATIVE_INFINITY : -Math.pow(2, 63) + range * lowPercent / 100.0;
        double max = widthPercent == 100 ? Double.POSITIVE_INFINITY
                : -Math.pow(2, 63) + range * Math.min(100, lowPercent + widthPercent) / 100.0;
        return new Reduction(k, min, max);
    }

    private static RunSummary run(int n, int nodes, Reduction reduction, Kept kept, Faults faults) throws Exception {
        SyntheticApp app = app(n);
        if (nodes == 1) {
            return Rocket.run(app, app.keys(), options(reduction), kept);
        }
        String group = UUID.randomUUID().toString();
        ExecutorService pool = Executors.newFixedThreadPool(nodes);
        try {
            List<Future<RunSummary>> futures = new ArrayList<>();
            for (int r = 0; r < nodes; r++) {
                ClusterOptions cluster = ClusterOptions.loopback(group, r, nodes)
                        .withFaults(r == nodes - 1 ? faults : Faults.NONE);
                ResultSink<Integer, Long> sink = r == 0 ? kept : new Kept();
                futures.add(pool.submit(() -> ClusterRun.run(app(n), app.keys(), options(reduction), cluster, sink)));
            }
            RunSummary rank0 = futures.get(0).get(90, TimeUnit.SECONDS);
            for (Future<RunSummary> f : futures.subList(1, nodes)) {
                try {
                    f.get(90, TimeUnit.SECONDS);
                } catch (ExecutionException e) { // the node with an injected crash ends with it
                    assertThat(e.getCause()).hasMessageContaining("crashed");
                }
            }
            return rank0;
        } finally {
            pool.shutdownNow();
        }
    }

    @Property(tries = 20)
    void keptPairs_equalTheFilterOfTheFullResult(@ForAll @IntRange(min = 1, max = 4) int nodes,
                                                 @ForAll @IntRange(min = 20, max = 48) int n,
                                                 @ForAll @IntRange(min = 0, max = 4) int k,
                                                 @ForAll @IntRange(min = 0, max = 60) int lowPercent,
                                                 @ForAll @IntRange(min = 30, max = 100) int widthPercent)
            throws Exception {
        Reduction reduction = reduction(k, lowPercent, widthPercent);
        Kept kept = new Kept();
        RunSummary summary = run(n, nodes, reduction, kept, Faults.NONE);
        assertThat(kept.duplicates).isZero();
        assertThat(kept.pairs).isEqualTo(expected(n, reduction, false));
        assertThat(summary.pairs + summary.errors).isEqualTo((long) n * (n - 1) / 2);
        assertThat(summary.reduction.get("pairs_kept")).isEqualTo((long) kept.pairs.size());
    }

    @Test
    @Timeout(120)
    void nodeLostMidRun_itsPairsAreRunAgain_andTheKeptSetIsExact() throws Exception {
        int n = 90;
        Reduction reduction = new Reduction(3, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
        Kept kept = new Kept();
        RunSummary summary = run(n, 4, reduction, kept, Faults.NONE.withCrashAfter(250));
        assertThat(((Number) summary.cluster.get("lost_nodes")).intValue()).isEqualTo(1);
        assertThat(summary.pairs + summary.errors).isEqualTo((long) n * (n - 1) / 2);
        assertThat(kept.duplicates).isZero();
        assertThat(kept.pairs).isEqualTo(expected(n, reduction, false));
        assertThat(((Number) summary.reduction.get("pairs_dropped_on_nodes")).longValue()).isPositive();
        SummaryBoundsTest.assertWithinBounds("top-k after a loss", summary);
    }

    @Test
    @Timeout(60)
    void bandOnly_streamsKeptPairs_andOthersAreDroppedOnTheNodes() throws Exception {
        int n = 40;
        Reduction reduction = reduction(0, 50, 100); // the upper half of the scores
        Kept kept = new Kept();
        RunSummary summary = run(n, 3, reduction, kept, Faults.NONE);
        assertThat(kept.pairs).isEqualTo(expected(n, reduction, false));
        long received = ((Number) summary.reduction.get("pairs_received")).longValue();
        long dropped = ((Number) summary.reduction.get("pairs_dropped_on_nodes")).longValue();
        assertThat(received + dropped).isEqualTo((long) n * (n - 1) / 2);
        assertThat(summary.reduction).containsEntry("min_score", 0.0).doesNotContainKey("top_k");
        SummaryBoundsTest.assertWithinBounds("band on 3 nodes", summary);
    }

    @Test
    void journal_withReduction_isRefused() {
        SyntheticApp app = app(4);
        RocketOptions options = options(new Reduction(1, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY))
                .withJournal(new JournalOptions(Path.of("journal"), false, "job"));
        assertThatThrownBy(() -> Rocket.run(app, app.keys(), options, new Kept()))
                .isInstanceOf(RocketException.class).hasMessageContaining("cannot be combined with --journal");
    }

    /** Rank 0's sink: the pairs written, and duplicates. */
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
