package io.rocket.runtime;

import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.testkit.SyntheticCheck;
import io.rocket.cli.ProgressDisplay;
import io.rocket.steal.PairSpace;
import io.rocket.core.CacheSize;
import io.rocket.cluster.ClusterOptions;
import io.rocket.cluster.Faults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rank 0's progress lines in an in-JVM cluster: they show, beside the whole run's rate, the rate at which every
 * rank computes (rank 0 included), learnt from the result batches, and mark a lost rank.
 */
class ClusterProgressTest {

    static {
        System.setProperty("java.net.preferIPv4Stack", "true");
    }

    private static final int N = 120;
    private static final long PAIRS = (long) N * (N - 1) / 2;
    private static final Pattern NODE_RATE = Pattern.compile(" r([0-9]+) ([0-9.,]+)/s( \\(lost\\))?");

    /** Runs the nodes with rank 0's results through a progress display printing every 0.1 s; returns its text. */
    private static String run(int nodes, IntFunction<Faults> faults, SyntheticCheck check) throws Exception {
        String group = UUID.randomUUID().toString();
        RocketOptions options = RocketOptions.defaults().withThreads(1, 1).withTileSize(8)
                .withCaches(new CacheSize(-1, 30), new CacheSize(-1, 15));
        StringWriter text = new StringWriter();
        ProgressDisplay<Integer, Long> progress = ProgressDisplay.lines(null, PAIRS, Duration.ofMillis(100),
                new PrintWriter(text)); // the result chain links it to the check
        ExecutorService pool = Executors.newFixedThreadPool(nodes);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int r = 0; r < nodes; r++) {
                ClusterOptions cluster = ClusterOptions.loopback(group, r, nodes).withFaults(faults.apply(r));
                ResultChain.End<Integer, Long> end = r == 0 ? new ResultChain.End<>(check, List.of(), false, progress)
                        : ResultChain.End.of(new SyntheticCheck(11, N, true));
                SyntheticApp app = new SyntheticApp(new SyntheticApp.Config(N, 256, Cost.parse("0.2"), Cost.ZERO,
                        Cost.parse("0.3"), 11));
                futures.add(pool.submit(() -> ClusterRun.run(RunPlan.check(app, app.keys(),
                        PairSpace.triangle(N), options.withCluster(cluster)), cluster, end, null)));
            }
            for (int r = 0; r < nodes; r++) {
                try {
                    futures.get(r).get(90, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    assertThat(faults.apply(r).crashAfter()).as("rank %d failed: %s", r, e.getCause()).isNotNegative();
                }
            }
        } finally {
            progress.close();
            pool.shutdownNow();
        }
        return text.toString();
    }

    /**
     * The progress lines of {@code text}, after checking that the only others are the lines saying which ranks rank 0
     * waits for, and that these come before any progress (nothing is computed before the cluster has formed).
     */
    private static List<String> progressLines(String text) {
        List<String> all = text.lines().toList();
        int waiting = 0;
        while (waiting < all.size() && all.get(waiting).startsWith("rocket: waiting for ")) {
            assertThat(all.get(waiting)).as(text)
                    .matches("rocket: waiting for ranks? [0-9, ]+ to join \\([0-9]+ s of 30 s\\)");
            waiting++;
        }
        return all.subList(waiting, all.size());
    }

    /** The rate shown for each rank in {@code line}, in rank order; lost ranks as negative. */
    private static List<Double> nodeRates(String line) {
        String nodes = line.substring(line.indexOf("; nodes:") + "; nodes:".length());
        List<Double> rates = new ArrayList<>();
        Matcher m = NODE_RATE.matcher(nodes);
        while (m.find()) {
            assertThat(Integer.parseInt(m.group(1))).isEqualTo(rates.size());
            double rate = Double.parseDouble(m.group(2).replace(",", ""));
            rates.add(m.group(3) == null ? rate : -1 - rate);
        }
        return rates;
    }

    @Test
    @Timeout(120)
    void fourNodes_rankZeroShowsARateForEveryRank() throws Exception {
        SyntheticCheck check = new SyntheticCheck(11, N, true);
        String text = run(4, r -> Faults.NONE, check);
        assertThat(check.problem()).isNull();
        List<String> lines = progressLines(text);
        assertThat(lines.size()).as(text).isGreaterThanOrEqualTo(3);
        for (String line : lines) {
            assertThat(line).as(text).matches("rocket: [0-9,]+/7,140 pairs \\([0-9.]+%\\), [0-9.,]+ pairs/s, .*; "
                    + "nodes: r0 [0-9.,]+/s r1 [0-9.,]+/s r2 [0-9.,]+/s r3 [0-9.,]+/s");
        }
        // While the run goes, some line shows every rank at work; at the end, each rank's average.
        assertThat(lines.subList(0, lines.size() - 1)).as(text)
                .anySatisfy(line -> assertThat(nodeRates(line)).hasSize(4).allSatisfy(r -> assertThat(r).isPositive()));
        String last = lines.get(lines.size() - 1);
        assertThat(last).as(text).startsWith("rocket: 7,140/7,140 pairs (100.0%)").contains("done in");
        assertThat(nodeRates(last)).as(text).hasSize(4).allSatisfy(r -> assertThat(r).isPositive());
    }

    @Test
    @Timeout(120)
    void lostRank_isMarkedLost_andTheRunStillEndsDone() throws Exception {
        SyntheticCheck check = new SyntheticCheck(11, N, true);
        String text = run(3, r -> r == 2 ? Faults.NONE.withCrashAfter(300) : Faults.NONE, check);
        assertThat(check.problem()).isNull();
        List<String> lines = progressLines(text);
        String last = lines.get(lines.size() - 1);
        assertThat(last).as(text).startsWith("rocket: 7,140/7,140 pairs (100.0%)").contains("done in")
                .contains(" r2 ").endsWith("/s (lost)");
        List<Double> rates = nodeRates(last);
        assertThat(rates).as(text).hasSize(3);
        assertThat(rates.get(0)).isPositive();
        assertThat(rates.get(1)).isPositive();
        assertThat(rates.get(2)).as("lost, after computing some pairs").isLessThan(-1);
        // Once lost, the periodic lines show it at 0/s.
        assertThat(lines.subList(0, lines.size() - 1)).as(text)
                .anySatisfy(line -> assertThat(line).endsWith(" r2 0/s (lost)"));
    }
}
