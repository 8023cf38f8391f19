package io.rocket.runtime;

import io.rocket.cluster.Faults;
import io.rocket.core.CacheSize;
import io.rocket.core.ResultSink;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.summary.RunSummary;
import io.rocket.steal.PairSpace;
import io.rocket.results.reduce.Reduction;
import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.testkit.SyntheticCheck;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * Tiles give the per-pair path's results: over random shapes (items of mixed sizes, leaf sizes, devices, L1 sizes
 * down to 2 items, tile limits from one pair, the old path, to automatic), on cpu and sim, with the default
 * compareTile and with a kernel's own blocked one, every pair arrives exactly once with its exact value, and the
 * counts of a tiled run equal those of a run with one pair a tile; over random pair spaces (rectangles, lists, their
 * union) with and without a top-k reduction, a tiled run's results are those of a run with one pair a tile.
 */
class TilePropertiesTest {

    @Property(tries = 40)
    void tilesGiveThePerPairResults(@ForAll @IntRange(min = 0, max = 160) int n,
                                    @ForAll @IntRange(min = 1, max = 24) int leaf,
                                    @ForAll @IntRange(min = 1, max = 2) int devices,
                                    @ForAll @IntRange(min = 2, max = 40) int deviceSlots,
                                    @ForAll @IntRange(min = 0, max = 40) int tilePairs,
                                    @ForAll boolean sim,
                                    @ForAll boolean ownTileKernel,
                                    @ForAll boolean mixedSizes,
                                    @ForAll long seed) {
        SyntheticApp app = new SyntheticApp(new SyntheticApp.Config(n, 96, Cost.ZERO, Cost.ZERO, Cost.ZERO, seed),
                mixedSizes && !sim, ownTileKernel);
        RunSummary tiled = run(app, seed, n, !sim, options(sim, devices, deviceSlots, leaf, tilePairs));
        RunSummary perPair = run(app, seed, n, !sim, options(sim, devices, deviceSlots, leaf, 1));
        assertThat(tiled.pairs).isEqualTo(perPair.pairs).isEqualTo((long) n * (n - 1) / 2);
        assertThat(tiled.errors).isZero();
        assertThat(perPair.errors).isZero();
    }

    @Property(tries = 25)
    void tilesGiveThePerPairResultsOfAnyPairSpaceAndTopK(@ForAll @IntRange(min = 2, max = 120) int n,
                                                        @ForAll @IntRange(min = 0, max = 2) int spaceKind,
                                                        @ForAll @IntRange(min = 0, max = 30) int topK,
                                                        @ForAll @IntRange(min = 2, max = 30) int deviceSlots,
                                                        @ForAll boolean ownTileKernel,
                                                        @ForAll long seed) throws Exception {
        SyntheticApp app = new SyntheticApp(new SyntheticApp.Config(n, 64, Cost.ZERO, Cost.ZERO, Cost.ZERO, seed),
                false, ownTileKernel);
        PairSpace space = PairSpaceRunTest.randomSpace(n, seed, spaceKind);
        Reduction reduction = topK == 0 ? null : Reduction.of(topK, null, null);
        Map<Long, Long> tiled = collect(app, space, options(false, 2, deviceSlots, 8, 0).withReduction(reduction));
        Map<Long, Long> perPair = collect(app, space, options(false, 2, deviceSlots, 8, 1).withReduction(reduction));
        assertThat(tiled).isEqualTo(perPair);
        if (reduction == null) {
            assertThat(tiled).hasSize((int) space.pairs()); // every pair of the space (there may be none)
        }
    }

    /**
     * A node lost mid-run on a 3-node cluster, a rectangle of pairs: with tiles, rank 0 receives the results of a run
     * with one pair a tile, every pair once (the lost node's tiles are recomputed by the others).
     */
    @Test
    @Timeout(180)
    void aLostNode_tilesGiveThePerPairResults() throws Exception {
        int n = 120;
        SyntheticApp app = new SyntheticApp(new SyntheticApp.Config(n, 256, Cost.ZERO, Cost.ZERO, Cost.parse("0.2"),
                17), false, true);
        PairSpace space = PairSpace.rectangle(n, 80, 30);
        Map<Long, Long> tiled = new ConcurrentHashMap<>();
        Map<Long, Long> perPair = new ConcurrentHashMap<>();
        for (int tilePairs : new int[] {0, 1}) {
            Faults[] faults = PairSpaceRunTest.none(3);
            faults[1] = Faults.NONE.withCrashAfter(150);
            RocketOptions options = options(false, 1, 12, 8, tilePairs);
            RunSummary summary = PairSpaceRunTest.runCluster(app, app.keys(), space, 3, options, faults,
                    collector(tilePairs == 0 ? tiled : perPair));
            assertThat(((Number) summary.cluster.get("lost_nodes")).intValue()).isEqualTo(1);
        }
        assertThat(tiled).hasSize((int) space.pairs()).isEqualTo(perPair);
    }

    /** Every result of a run, keyed by its pair; a pair twice or a failed one fails the test. */
    private static Map<Long, Long> collect(SyntheticApp app, PairSpace space, RocketOptions options)
            throws Exception {
        Map<Long, Long> results = new ConcurrentHashMap<>();
        Rocket.run(app, app.keys(), space, options, collector(results));
        return results;
    }

    /** A sink that puts each result into {@code results}; a pair twice or a failed one fails the test. */
    private static ResultSink<Integer, Long> collector(Map<Long, Long> results) {
        return new ResultSink<>() {
            @Override
            public void accept(int i, int j, Integer left, Integer right, Long result) {
                assertThat(results.put((long) i << 32 | j, result)).as("pair (%d, %d) twice", i, j).isNull();
            }

            @Override
            public void failed(int i, int j, Integer left, Integer right, Throwable error) {
                throw new AssertionError("pair (" + i + ", " + j + ") failed", error);
            }
        };
    }

    private static RocketOptions options(boolean sim, int devices, int deviceSlots, int leaf, int tilePairs) {
        return RocketOptions.defaults()
                .withDevice(DeviceSpec.parse((sim ? "sim:" : "cpu:") + devices))
                .withCaches(new CacheSize(-1, 64), new CacheSize(-1, deviceSlots))
                .withThreads(2, 1)
                .withTileSize(leaf)
                .toBuilder().tilePairs(tilePairs).build();
    }

    /** One run; the values are checked where the device computes them (the sim device only models time). */
    private static RunSummary run(SyntheticApp app, long seed, int n, boolean values, RocketOptions options) {
        SyntheticCheck check = new SyntheticCheck(seed, n, values);
        AtomicReference<RunSummary> summary = new AtomicReference<>();
        assertThatCode(() -> RuntimePropertiesTest.assertTimeout(
                () -> summary.set(Rocket.run(app, app.keys(), options, check)))).doesNotThrowAnyException();
        assertThat(check.problem()).as("tile pairs %d", options.tilePairs()).isNull();
        return summary.get();
    }
}
