package io.rocket.runtime;

import io.rocket.cluster.ClusterOptions;
import io.rocket.cluster.Faults;
import io.rocket.core.Application;
import io.rocket.core.CacheSize;
import io.rocket.core.ResultSink;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.summary.PerformanceModel;
import io.rocket.core.summary.RunSummary;
import io.rocket.steal.PairSpace;
import io.rocket.steal.ScheduleOrder;
import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.testkit.SyntheticCheck;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Runs of pair spaces other than the triangle, on one node and on in-JVM clusters of up to four nodes, with and
 * without a node lost mid-run: rank 0 receives every pair of the space exactly once, with the value of its
 * orientation, and nothing outside it.
 */
class PairSpaceRunTest {

    static {
        System.setProperty("java.net.preferIPv4Stack", "true");
    }

    private static final long SEED = 17;

    private static SyntheticApp synthetic(int n, String compare) {
        return new SyntheticApp(new SyntheticApp.Config(n, 256, Cost.ZERO, Cost.ZERO, Cost.parse(compare), SEED));
    }

    private static RocketOptions options(ScheduleOrder order) {
        return RocketOptions.defaults().withThreads(1, 1).withTileSize(8)
                .withCaches(new CacheSize(-1, 24), new CacheSize(-1, 12)).toBuilder().order(order).build();
    }

    /** A random space of {@code n} items: a rectangle (maybe with shared items), a list, or both. */
    static PairSpace randomSpace(int n, long seed, int kind) {
        Random random = new Random(seed);
        int queryEnd = 1 + random.nextInt(n - 1);
        PairSpace rectangle = PairSpace.rectangle(n, queryEnd, random.nextInt(queryEnd + 1));
        List<int[]> pairs = new ArrayList<>();
        for (int k = 0; k < 2 * n; k++) {
            int a = random.nextInt(n);
            int b = (a + 1 + random.nextInt(n - 1)) % n;
            pairs.add(new int[] {a, b});
        }
        PairSpace listed = PairSpace.listed(n, pairs);
        return switch (kind) {
            case 0 -> rectangle;
            case 1 -> listed;
            default -> PairSpace.union(List.of(rectangle, listed));
        };
    }

    /** Runs {@code space} on {@code nodes} in-JVM nodes ({@code faults} per rank); returns rank 0's summary. */
    static RunSummary runCluster(Application<Integer, Long> app, List<Integer> keys, PairSpace space,
                                         int nodes, RocketOptions options, Faults[] faults,
                                         ResultSink<Integer, Long> rank0) throws Exception {
        if (nodes == 1) {
            return Rocket.run(app, keys, space, options, rank0);
        }
        String group = UUID.randomUUID().toString();
        ExecutorService pool = Executors.newFixedThreadPool(nodes);
        try {
            List<Future<RunSummary>> futures = new ArrayList<>();
            for (int r = 0; r < nodes; r++) {
                ClusterOptions cluster = ClusterOptions.loopback(group, r, nodes).withFaults(faults[r]);
                ResultSink<Integer, Long> sink = r == 0 ? rank0 : new SyntheticCheck(SEED, keys.size(), false);
                futures.add(pool.submit(() -> Rocket.run(app, keys, space,
                        options.toBuilder().cluster(cluster).build(), sink)));
            }
            RunSummary summary = null;
            for (int r = 0; r < nodes; r++) {
                try {
                    RunSummary s = futures.get(r).get(90, TimeUnit.SECONDS);
                    if (r == 0) {
                        summary = s;
                    }
                } catch (ExecutionException e) {
                    assertThat(faults[r]).as("rank %d failed: %s", r, e.getCause()).isNotEqualTo(Faults.NONE);
                }
            }
            return summary;
        } finally {
            pool.shutdownNow();
        }
    }

    static Faults[] none(int nodes) {
        Faults[] faults = new Faults[nodes];
        java.util.Arrays.fill(faults, Faults.NONE);
        return faults;
    }

    @Property(tries = 8)
    void randomSpaces_onOneToFourNodes_everyPairOnce(@ForAll @IntRange(min = 2, max = 60) int n,
                                                     @ForAll long seed,
                                                     @ForAll @IntRange(min = 0, max = 2) int kind,
                                                     @ForAll @IntRange(min = 1, max = 4) int nodes,
                                                     @ForAll boolean ordered,
                                                     @ForAll boolean blocked) throws Exception {
        SyntheticApp base = synthetic(n, "0");
        Application<Integer, Long> app = ordered ? new OrderedSynthetic(base) : base;
        PairSpace space = randomSpace(n, seed, kind).ordered(ordered);
        SpaceCheck check = new SpaceCheck(SEED, space);
        RunSummary summary = runCluster(app, base.keys(), space, nodes,
                options(blocked ? ScheduleOrder.BLOCKED : ScheduleOrder.QUADTREE), none(nodes), check);
        assertThat(check.problem()).isNull();
        assertThat(summary.pairs).isEqualTo(space.pairs());
    }

    /** A node lost mid-run: the survivors re-run its missing pairs of the rectangle, and only those. */
    @Test
    @Timeout(120)
    void rectangle_withANodeLost_everyPairOfTheSpaceOnce() throws Exception {
        int n = 140;
        SyntheticApp app = synthetic(n, "0.2");
        PairSpace space = PairSpace.rectangle(n, 90, 40); // 40 queries only, 50 shared, 50 references only
        SpaceCheck check = new SpaceCheck(SEED, space);
        Faults[] faults = none(4);
        faults[2] = Faults.NONE.withCrashAfter(300);
        RunSummary summary = runCluster(app, app.keys(), space, 4, options(ScheduleOrder.BLOCKED), faults, check);
        assertThat(check.problem()).isNull();
        assertThat(summary.pairs).isEqualTo(space.pairs());
        assertThat(((Number) summary.cluster.get("lost_nodes")).intValue()).isEqualTo(1);
    }

    /** The same for listed pairs in both orientations: recovery re-runs only listed pairs. */
    @Test
    @Timeout(120)
    void orderedList_withANodeLost_everyPairOfTheSpaceOnce() throws Exception {
        int n = 120;
        SyntheticApp base = synthetic(n, "0.2");
        PairSpace space = randomSpace(n, 5, 2).ordered(true);
        SpaceCheck check = new SpaceCheck(SEED, space);
        Faults[] faults = none(3);
        faults[1] = Faults.NONE.withCrashAfter(200);
        RunSummary summary = runCluster(new OrderedSynthetic(base), base.keys(), space, 3,
                options(ScheduleOrder.BLOCKED), faults, check);
        assertThat(check.problem()).isNull();
        assertThat(summary.pairs).isEqualTo(space.pairs());
        assertThat(((Number) summary.cluster.get("lost_nodes")).intValue()).isEqualTo(1);
    }

    /** The query x reference results are the matching block of the triangle's. */
    @Test
    void rectangle_equalsTheMatchingBlockOfTheTriangle() throws Exception {
        int n = 50;
        SyntheticApp app = synthetic(n, "0");
        List<long[]> full = new ArrayList<>();
        List<long[]> block = new ArrayList<>();
        Rocket.run(app, app.keys(), options(ScheduleOrder.BLOCKED), collect(full));
        PairSpace space = PairSpace.rectangle(n, 30, 20);
        RunSummary summary = Rocket.run(app, app.keys(), space, options(ScheduleOrder.BLOCKED), collect(block));
        List<long[]> expected = full.stream().filter(p -> space.contains((int) p[0], (int) p[1])).toList();
        assertThat(sorted(block)).isEqualTo(sorted(expected));
        // 20 queries only x 30 references, 45 pairs among the 10 shared, 10 shared x 20 references only
        assertThat(summary.pairs).isEqualTo(600 + 45 + 200).isEqualTo(space.pairs());
    }

    /** The summary's R lower bound is worked out for the run's space, and R is never below it. */
    @Test
    void theSummarysRBound_isThatOfTheRunsSpace() throws Exception {
        int n = 400;
        SyntheticApp app = synthetic(n, "0");
        RocketOptions options = options(ScheduleOrder.BLOCKED).withDevice(DeviceSpec.parse("cpu:2"));
        List<int[]> listed = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            listed.add(new int[] {i, (i * 7 + 3) % n == i ? (i + 1) % n : (i * 7 + 3) % n});
        }
        RunSummary rectangle = null;
        for (PairSpace space : List.of(PairSpace.rectangle(n, 200, 200), PairSpace.rectangle(n, 240, 120),
                PairSpace.listed(n, listed), PairSpace.union(List.of(PairSpace.rectangle(n, 100, 100),
                        PairSpace.listed(n, listed))))) {
            RunSummary s = Rocket.run(app, app.keys(), space, options, collect(new ArrayList<>()));
            long capacity = s.cache.get("host").slots() + s.cache.get("device").slots();
            assertThat(s.reuseLowerBound).as("%s", space)
                    .isEqualTo(PerformanceModel.reuseLowerBound(s.itemsNeeded, s.pairs, capacity, space.density()));
            assertThat(s.reuse).as("%s", space).isGreaterThanOrEqualTo(s.reuseLowerBound);
            rectangle = rectangle == null ? s : rectangle;
        }
        // 200 x 200 other references with C = 24 slots (the cpu devices read L2 in place: no L1 slots): F > 24
        // (40,000 - 12^2) / 24^2 = 1,661 fills for 400 items, where the triangle's bound says
        // (40,000 - 276) / 47 / 400 = 2.11.
        assertThat(rectangle.cache.get("host").slots() + rectangle.cache.get("device").slots()).isEqualTo(24);
        assertThat(rectangle.reuseLowerBound).isCloseTo(24 * (40_000.0 - 144) / 576 / 400, within(1e-9))
                .isGreaterThan(PerformanceModel.reuseLowerBound(n, 40_000, 24));
    }

    private static ResultSink<Integer, Long> collect(List<long[]> out) {
        return new ResultSink<>() {
            @Override
            public synchronized void accept(int i, int j, Integer left, Integer right, Long result) {
                out.add(new long[] {i, j, result});
            }

            @Override
            public synchronized void failed(int i, int j, Integer left, Integer right, Throwable error) {
                out.add(new long[] {i, j, Long.MIN_VALUE});
            }

            @Override
            public void close() {
            }
        };
    }

    private static List<String> sorted(List<long[]> pairs) {
        return pairs.stream().map(p -> p[0] + " " + p[1] + " " + p[2]).sorted().toList();
    }
}
