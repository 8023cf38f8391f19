package io.rocket.steal;

import io.rocket.core.summary.PerformanceModel;
import io.rocket.core.trace.Tracer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class BandOrderTest {

    @Test
    void theCachesSetTheStreamWidth_inPlace_anL1HoldingTheBand_andASmallerL1() {
        // Read in place (cpu): 2 columns a leaf, the band as high as the margin of 2 leaves x 2 devices allows.
        BandOrder inPlace = BandOrder.forNode(250, 2, 16, 0);
        assertThat(inPlace.streamWidth()).isEqualTo(2);
        assertThat(inPlace.bandRows()).isEqualTo(250 - 2 * 2 * 2);
        // An L1 that holds the band's rows and a leaf: the usual quarter tile.
        BandOrder holds = BandOrder.forNode(200, 1, 16, 1000);
        assertThat(holds.streamWidth()).isEqualTo(4);
        assertThat(holds.bandRows()).isEqualTo(192);
        // An L1 of 100 below a band of 192: leaves as wide as half the L1, within an eighth of L2 for the leaves in
        // flight (200 / 16 = 12 columns for one device).
        BandOrder small = BandOrder.forNode(200, 1, 16, 100);
        assertThat(small.streamWidth()).isEqualTo(12);
        assertThat(small.bandRows()).isEqualTo(200 - 2 * 12);
        assertThat(BandOrder.forNode(200, 1, 16, 10).streamWidth()).as("half of a small L1, never below the usual")
                .isEqualTo(5);
    }

    @Property(tries = 40)
    void withTheCachesSettingTheWidth_bandsAndLeavesStillCoverEveryPairOnce(
            @ForAll @IntRange(min = 0, max = 300) int n, @ForAll @IntRange(min = 2, max = 400) int hostSlots,
            @ForAll @IntRange(min = 1, max = 4) int devices, @ForAll @IntRange(min = 0, max = 300) int deviceSlots) {
        BandOrder order = BandOrder.forNode(hostSlots, devices, 16, deviceSlots);
        PairCoverage coverage = new PairCoverage(n);
        for (Region band : order.bands(n)) {
            order.leaves(band).forEach(coverage::add);
        }
        coverage.assertComplete();
        assertThat(2 * Math.max(1, devices) * order.streamWidth()).as("leaves in flight take at most a quarter of L2")
                .isLessThanOrEqualTo(Math.max(2 * Math.max(1, devices), hostSlots / 4 + 1));
    }

    @Property(tries = 60)
    void bandsAndTheirLeaves_coverEveryPairOnce(@ForAll @IntRange(min = 0, max = 300) int n,
                                                 @ForAll @IntRange(min = 2, max = 400) int hostSlots,
                                                 @ForAll @IntRange(min = 1, max = 4) int devices,
                                                 @ForAll @IntRange(min = 1, max = 32) int tile) {
        BandOrder order = BandOrder.forNode(hostSlots, devices, tile);
        PairCoverage coverage = new PairCoverage(n);
        for (Region band : order.bands(n)) {
            assertThat(band.isBand()).isTrue();
            List<Region> leaves = order.leaves(band);
            assertThat(order.firstLeaf(band)).isEqualTo(leaves.get(0));
            leaves.forEach(coverage::add);
        }
        coverage.assertComplete();
    }

    @Property(tries = 30)
    void aSchedulerInBands_submitsEveryPairOnce_withStealsAndRemoteThieves(
            @ForAll @IntRange(min = 0, max = 160) int n, @ForAll @IntRange(min = 2, max = 120) int hostSlots,
            @ForAll @IntRange(min = 1, max = 4) int workers, @ForAll @IntRange(min = 1, max = 16) int tile)
            throws Exception {
        BandOrder order = BandOrder.forNode(hostSlots, workers, tile);
        PairCoverage coverage = new PairCoverage(n);
        WorkScheduler[] holder = new WorkScheduler[1];
        List<Region> stolen = new ArrayList<>();
        WorkScheduler scheduler = new WorkScheduler(workers, tile, (long) n * (n - 1) / 2, (device, i, j) -> {
            synchronized (coverage) {
                coverage.add(new Region(i, i + 1, j, j + 1, 0));
                if (coverage.count() % 97 == 0) {
                    stolen.addAll(holder[0].stealForRemote()); // a thief on another node takes work meanwhile
                }
            }
            holder[0].pairDone();
        });
        holder[0] = scheduler;
        scheduler.bands(order);
        List<Region> stolenHere = new ArrayList<>();
        try (scheduler) {
            scheduler.start(order.bands(n).stream().map(b -> new StartShares.Part(b, 0)).toList(), Tracer.NOOP);
            // What was stolen is run by "the other node": handed back to this scheduler, as a thief's workers would.
            while (true) {
                synchronized (coverage) {
                    stolenHere.addAll(stolen);
                    stolen.clear();
                }
                if (!stolenHere.isEmpty()) {
                    scheduler.give(List.copyOf(stolenHere));
                    stolenHere.clear();
                }
                if (scheduler.remaining() == 0) {
                    break;
                }
                Thread.sleep(1);
            }
            scheduler.await();
        }
        coverage.assertComplete();
    }

    @Test
    void aLeafRunsItsRowsInTheOrderItsFlagSays_alternatingAlongTheStream() {
        BandOrder order = new BandOrder(4, 2, 6);
        Region band = order.bands(20).get(0);
        assertThat(band).isEqualTo(new Region(0, 6, 0, 20, Region.BAND));
        List<Region> stream = order.leaves(band).stream().filter(r -> r.c0() >= 6).toList();
        assertThat(stream).hasSize(7);
        assertThat(stream.get(0)).isEqualTo(new Region(0, 6, 18, 20, Region.LEAF));
        assertThat(stream.get(1)).isEqualTo(new Region(0, 6, 16, 18, Region.LEAF | Region.ROWS_DESCENDING));
        assertThat(stream.get(6).c0()).isEqualTo(6); // the stream ends next to the band: the next band's rows
        assertThat(stream.get(0).isLeaf(4)).isTrue();
        assertThat(stream.get(1).rowsDescending()).isTrue();
    }

    @Test
    void splittingABandGivesPlainQuadtreeRegions() {
        Region band = new Region(0, 40, 0, 100, Region.BAND | 1);
        List<Region> children = new ArrayList<>();
        band.split(children::add);
        assertThat(children).isNotEmpty().allSatisfy(c -> {
            assertThat(c.isBand()).isFalse();
            assertThat(c.curve()).isBetween(0, 3);
        });
    }

    /**
     * The loads an LRU cache of {@code slots} items takes for the pairs in the order given, one device: the model
     * behind the goal (R near the bound) without the timing of a real run.
     */
    private static double modelR(int n, int slots, Consumer<Consumer<Region>> leaves) {
        Map<Integer, Boolean> lru = new LinkedHashMap<>(slots * 2, 0.75f, true);
        long[] loads = {0};
        Consumer<Integer> touch = item -> {
            if (lru.get(item) == null) {
                loads[0]++;
                lru.put(item, Boolean.TRUE);
                if (lru.size() > slots) {
                    Integer eldest = lru.keySet().iterator().next();
                    lru.remove(eldest);
                }
            }
        };
        leaves.accept(leaf -> {
            for (int k = 0; k < leaf.r1() - leaf.r0(); k++) {
                int i = leaf.rowsDescending() ? leaf.r1() - 1 - k : leaf.r0() + k;
                for (int j = Math.max(leaf.c0(), i + 1); j < leaf.c1(); j++) {
                    touch.accept(i);
                    touch.accept(j);
                }
            }
        });
        return (double) loads[0] / n;
    }

    @Test
    void inAnLruModel_bandsReuseTwiceAsWellAsTheQuadtree_andStayWithinThreeTimesTheBound() {
        int n = 1000;
        int slots = 200;
        BandOrder order = BandOrder.forNode(slots, 1, 16);
        double bands = modelR(n, slots, out -> order.bands(n).forEach(b -> order.expand(b, out)));
        double quadtree = modelR(n, slots, out -> quadtreeLeaves(Region.root(n), 16, out));
        double bound = PerformanceModel.reuseLowerBound(n, PerformanceModel.pairs(n), slots);
        assertThat(bound).isCloseTo((499_500.0 - 19_900) / 399 / 1000, within(1e-12));
        assertThat(bands).isLessThan(3.5).isLessThan(quadtree / 2).isGreaterThanOrEqualTo(bound);
    }

    private static void quadtreeLeaves(Region region, int tile, Consumer<Region> out) {
        if (region.isLeaf(tile)) {
            out.accept(region);
        } else {
            region.split(child -> quadtreeLeaves(child, tile, out));
        }
    }
}
