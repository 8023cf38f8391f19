package io.rocket.cluster;

import io.rocket.steal.Region;
import io.rocket.steal.StartShares;
import io.rocket.steal.WorkScheduler;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pieces of straggler handling that decide which pairs move: a leaf's unfinished suffix
 * ({@link InFlightPairs}) and a victim's rate-scaled share ({@link StealShare}). Neither may lose or double a pair.
 */
class StragglerPartsTest {

    /** The pairs of {@code regions} as bits i * n + j, failing on a pair seen twice. */
    private static BitSet pairs(int n, List<Region> regions) {
        BitSet seen = new BitSet();
        for (Region r : regions) {
            for (int i = r.r0(); i < r.r1(); i++) {
                for (int j = Math.max(r.c0(), i + 1); j < r.c1(); j++) {
                    assertThat(seen.get(i * n + j)).as("pair (%d, %d) twice", i, j).isFalse();
                    seen.set(i * n + j);
                }
            }
        }
        return seen;
    }

    @Property(tries = 200)
    void suffix_holdsExactlyThePairsFromThatPositionOn(@ForAll @IntRange(min = 0, max = 40) int r0,
                                                        @ForAll @IntRange(min = 1, max = 12) int rows,
                                                        @ForAll @IntRange(min = 0, max = 40) int c0,
                                                        @ForAll @IntRange(min = 1, max = 12) int cols,
                                                        @ForAll @IntRange(min = 0, max = 200) int from) {
        Region leaf = new Region(r0, r0 + rows, c0, c0 + cols, 0);
        int n = 64;
        BitSet expected = new BitSet();
        for (int i = leaf.r0(); i < leaf.r1(); i++) {
            for (int j = Math.max(leaf.c0(), i + 1); j < leaf.c1(); j++) {
                if (InFlightPairs.index(leaf, i, j) >= from) {
                    expected.set(i * n + j);
                }
            }
        }
        assertThat(pairs(n, InFlightPairs.suffix(leaf, from))).isEqualTo(expected);
    }

    @Property(tries = 100)
    void take_givesAboutTheTargetAndKeepsTheRest(@ForAll @IntRange(min = 2, max = 200) int n,
                                                  @ForAll @IntRange(min = 1, max = 16) int tile,
                                                  @ForAll @IntRange(min = 1, max = 3) int workers,
                                                  @ForAll @IntRange(min = 1, max = 99) int percent) {
        WorkScheduler scheduler = new WorkScheduler(workers, tile, -1, (device, i, j) -> { });
        List<Region> all = StartShares.cut(Region.root(n), tile, 6);
        scheduler.give(all);
        long total = scheduler.unbegunPairs();
        long target = StealShare.target(total, percent, 100 - percent);
        List<Region> given = StealShare.take(scheduler, target, tile);
        List<Region> kept = scheduler.claims();
        List<Region> both = new ArrayList<>(given);
        both.addAll(kept);
        assertThat(pairs(n, both).cardinality()).as("every pair given or kept, once").isEqualTo(total);
        long givenPairs = pairs(n, given).cardinality();
        assertThat(givenPairs).isGreaterThanOrEqualTo(Math.min(target, 1));
        if (given.stream().noneMatch(r -> r.isLeaf(tile))) {
            // When nothing given is down to a leaf, the cut can hit the target to within a quarter of its size.
            assertThat(givenPairs).isLessThanOrEqualTo(target + total / 4 + (long) tile * tile);
        }
    }
}
