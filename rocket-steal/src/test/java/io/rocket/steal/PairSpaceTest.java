package io.rocket.steal;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Random pair spaces (triangles, rectangles with and without shared items, listed pairs, unions, ordered), run
 * through every way a run starts (one node in bands or quadtree, cluster bands, partitioned windows, a resumed run):
 * the pairs the workers submit, less those a node skips, are every pair of the space exactly once.
 */
class PairSpaceTest {

    /** A space and how it was made, for the report of a failing case. */
    record Case(PairSpace space, String made) {
        @Override
        public String toString() {
            return made + " -> " + space.describe();
        }
    }

    @Provide
    Arbitrary<Case> spaces() {
        Arbitrary<Integer> items = Arbitraries.integers().between(0, 90);
        Arbitrary<Long> seeds = Arbitraries.longs();
        Arbitrary<Integer> kinds = Arbitraries.integers().between(0, 4);
        Arbitrary<Boolean> ordered = Arbitraries.of(false, true);
        return Combinators.combine(items, seeds, kinds, ordered).as((n, seed, kind, o) -> {
            Random random = new Random(seed);
            PairSpace space = switch (kind) {
                case 0 -> PairSpace.triangle(n);
                case 1, 2 -> rectangle(n, random);
                case 3 -> listed(n, random);
                default -> PairSpace.union(List.of(rectangle(n, random), listed(n, random)));
            };
            return new Case(space.ordered(o), "kind " + kind + ", n " + n + ", seed " + seed + ", ordered " + o);
        });
    }

    private static PairSpace rectangle(int n, Random random) {
        int queryEnd = n == 0 ? 0 : random.nextInt(n + 1);
        int referenceStart = queryEnd == 0 ? 0 : random.nextInt(queryEnd + 1);
        return PairSpace.rectangle(n, queryEnd, referenceStart);
    }

    private static PairSpace listed(int n, Random random) {
        List<int[]> pairs = new ArrayList<>();
        int count = n < 2 ? 0 : random.nextInt(3 * n);
        for (int k = 0; k < count; k++) {
            int a = random.nextInt(n);
            int b = random.nextInt(n - 1);
            pairs.add(new int[] {a, b >= a ? b + 1 : b});
        }
        return PairSpace.listed(n, pairs);
    }

    /** The pairs (i, j) a node submits to its pipeline for {@code parts}: NodeRun's skip and orientation rule. */
    private static void submitted(List<StartShares.Part> parts, BandOrder bands, int tile, PairSet done,
                                  boolean ordered, Consumer<int[]> out) {
        PairMask mask = done == null ? null : done.mask();
        for (StartShares.Part part : parts) {
            List<Region> leaves = new ArrayList<>();
            if (part.region().isBand()) {
                bands.expand(part.region(), leaf -> leavesOf(leaf, tile, leaves::add));
            } else {
                leavesOf(part.region(), tile, leaves::add);
            }
            for (Region leaf : leaves) {
                for (int i = leaf.r0(); i < leaf.r1(); i++) {
                    for (int j = Math.max(leaf.c0(), i + 1); j < leaf.c1(); j++) {
                        if (mask == null || !mask.contains(i, j)) {
                            out.accept(new int[] {i, j});
                        }
                        if (ordered && (mask == null || !mask.contains(j, i))) {
                            out.accept(new int[] {j, i});
                        }
                    }
                }
            }
        }
    }

    private static void leavesOf(Region region, int tile, Consumer<Region> out) {
        if (region.isLeaf(tile)) {
            out.accept(region);
        } else {
            region.split(child -> leavesOf(child, tile, out));
        }
    }

    /** Counts every submitted pair and checks: each of the space's pairs not resumed once, nothing else. */
    private static final class Tally {
        private final PairSpace space;
        private final int[] seen;
        private final int n;

        Tally(PairSpace space) {
            this.space = space;
            this.n = space.items();
            this.seen = new int[n * n];
        }

        void add(int[] pair) {
            seen[pair[0] * n + pair[1]]++;
        }

        void assertExactly(PairSet resumed) {
            long total = 0;
            long resumedInSpace = 0;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    int count = seen[i * n + j];
                    boolean orientation = space.ordered() ? i != j : i < j;
                    boolean wanted = orientation && space.contains(i, j)
                            && (resumed == null || !resumed.contains(i, j));
                    assertThat(count).as("pair (%d, %d) of %s", i, j, space.describe()).isEqualTo(wanted ? 1 : 0);
                    total += count;
                    if (orientation && space.contains(i, j) && resumed != null && resumed.contains(i, j)) {
                        resumedInSpace++;
                    }
                }
            }
            assertThat(total).isEqualTo(space.pairs() - resumedInSpace);
        }
    }

    @Property(tries = 400)
    void oneNode_inBandsOrQuadtree_runsEveryPairOfTheSpaceOnce(@ForAll("spaces") Case c,
                                                              @ForAll @IntRange(min = 1, max = 12) int tile,
                                                              @ForAll @IntRange(min = 1, max = 40) int hostSlots,
                                                              @ForAll boolean blocked) {
        PairSpace space = c.space();
        PairSet done = space.done(null);
        BandOrder bands = blocked ? BandOrder.forNode(hostSlots, 2, tile) : null;
        Tally tally = new Tally(space);
        submitted(SpaceStarts.node(space, done, false, bands, tile), bands, tile, done, space.ordered(), tally::add);
        tally.assertExactly(null);
    }

    @Property(tries = 300)
    void clusterStarts_ofAllRanks_runEveryPairOfTheSpaceOnce(@ForAll("spaces") Case c,
                                                            @ForAll @IntRange(min = 1, max = 4) int nodes,
                                                            @ForAll @IntRange(min = 1, max = 12) int tile,
                                                            @ForAll @IntRange(min = 1, max = 60) int window,
                                                            @ForAll boolean clusterBands) {
        PairSpace space = c.space();
        PairSet done = space.done(null);
        BandOrder bands = BandOrder.forTile(tile);
        Tally tally = new Tally(space);
        for (int rank = 0; rank < nodes; rank++) {
            List<StartShares.Part> parts = clusterBands
                    ? SpaceStarts.clusterBands(space, done, false, nodes, rank, window, tile)
                    : StartShares.parts(space.items(), tile, nodes, rank, window, done);
            submitted(parts, bands, tile, done, space.ordered(), tally::add);
        }
        tally.assertExactly(null);
    }

    @Property(tries = 200)
    void resumedRun_runsThePairsOfTheSpaceNotDone(@ForAll("spaces") Case c, @ForAll long seed,
                                                 @ForAll @IntRange(min = 1, max = 12) int tile) {
        PairSpace space = c.space();
        int n = space.items();
        PairSet resumed = new PairSet(n, space.ordered());
        Random random = new Random(seed);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (i != j && (space.ordered() || i < j) && random.nextInt(3) == 0) {
                    resumed.add(i, j);
                }
            }
        }
        PairSet done = space.done(resumed);
        BandOrder bands = BandOrder.forTile(tile);
        Tally tally = new Tally(space);
        submitted(SpaceStarts.node(space, done, true, bands, tile), bands, tile, done, space.ordered(), tally::add);
        tally.assertExactly(resumed);
    }

    /** After a loss, rank 0 re-runs what its finished set misses: with the outside pre-marked, only space pairs. */
    @Property(tries = 200)
    void missingRegions_ofAPartlyFinishedRun_holdOnlyThePairsOfTheSpaceLeft(@ForAll("spaces") Case c,
                                                                           @ForAll long seed) {
        PairSpace space = c.space();
        PairSet finished = space.done(null);
        finished = finished == null ? new PairSet(space.items(), space.ordered()) : finished;
        PairSet computed = new PairSet(space.items(), space.ordered());
        Random random = new Random(seed);
        for (int i = 0; i < space.items(); i++) {
            for (int j = 0; j < space.items(); j++) {
                if (i != j && (space.ordered() || i < j) && space.contains(i, j) && random.nextBoolean()) {
                    finished.add(i, j);
                    computed.add(i, j);
                }
            }
        }
        List<StartShares.Part> parts = StartShares.missing(finished, 4);
        Tally tally = new Tally(space);
        submitted(parts, BandOrder.forTile(4), 4, finished, space.ordered(), tally::add);
        tally.assertExactly(computed);
    }

    @Test
    void rectangle_isThePairsOfAQueryAndAReference_sharedPairsOnce() {
        // items: 0, 1 queries only; 2, 3 in both lists; 4 reference only
        PairSpace space = PairSpace.rectangle(5, 4, 2);
        assertThat(space.pairs()).isEqualTo(2 * 3 + 3); // queries only x references, and {2,3}, {2,4}, {3,4}
        assertThat(space.contains(0, 1)).isFalse();
        assertThat(space.contains(0, 4)).isTrue();
        assertThat(space.contains(3, 2)).isTrue();
        assertThat(space.exact()).isTrue();
        assertThat(space.ordered(true).pairs()).isEqualTo(18);
    }

    @Test
    void listed_normalisesAndDedupes_andRefusesBadPairs() {
        PairSpace space = PairSpace.listed(4, List.of(new int[] {2, 1}, new int[] {1, 2}, new int[] {0, 3}));
        assertThat(space.pairs()).isEqualTo(2);
        assertThat(space.exact()).isFalse();
        assertThatThrownBy(() -> PairSpace.listed(4, List.<int[]>of(new int[] {1, 4})))
                .hasMessageContaining("(1, 4)");
        assertThatThrownBy(() -> PairSpace.listed(4, List.<int[]>of(new int[] {2, 2})))
                .hasMessageContaining("(2, 2)");
    }

    @Test
    void digest_tellsSpacesApart() {
        assertThat(PairSpace.rectangle(10, 5, 5).digest()).isEqualTo(PairSpace.rectangle(10, 5, 5).digest())
                .isNotEqualTo(PairSpace.rectangle(10, 5, 4).digest())
                .isNotEqualTo(PairSpace.rectangle(10, 5, 5).ordered(true).digest());
        assertThat(PairSpace.triangle(10).isEverything()).isTrue();
        assertThat(PairSpace.triangle(10).outside()).isNull();
        assertThat(PairSpace.rectangle(10, 10, 0).isEverything()).isTrue();
    }

    @Test
    void orderedPairSet_keepsTheOrientationsApart() {
        PairSet set = new PairSet(5, true);
        assertThat(set.add(1, 3)).isTrue();
        assertThat(set.contains(3, 1)).isFalse();
        assertThat(set.add(3, 1)).isTrue();
        assertThat(set.add(3, 1)).isFalse();
        assertThat(set.total()).isEqualTo(20);
        assertThat(set.missing(Region.root(5))).isEqualTo(18);
    }
}
