package io.rocket.steal;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;
import java.util.zip.Deflater;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PairSetTest {

    @Property(tries = 100)
    void compressed_roundTrips(@ForAll @IntRange(min = 2, max = 300) int n,
                               @ForAll @IntRange(min = 0, max = 100) int percent, @ForAll long seed) {
        PairSet set = randomSet(n, percent, seed);
        PairSet back = new PairSet(n);
        back.addCompressed(set.toCompressed());
        assertThat(back.size()).isEqualTo(set.size());
        assertSameMembers(back, set);
    }

    /**
     * Every operation on a tiled set, with tiles small enough that regions cut them every way, matches a plain
     * boolean matrix of the same pairs: the tiles' three states (none, some, every pair) are bookkeeping only.
     */
    @Property(tries = 300)
    void tiledSets_matchAPlainMatrix_underEveryOperation(@ForAll @IntRange(min = 0, max = 70) int n,
                                                        @ForAll boolean ordered,
                                                        @ForAll @IntRange(min = 3, max = 5) int tileShift,
                                                        @ForAll long seed) {
        Random random = new Random(seed);
        PairSet set = new PairSet(n, ordered, 1 << tileShift);
        boolean[][] model = new boolean[n][n];
        for (int step = 0; step < 40 && n >= 2; step++) {
            int op = random.nextInt(4);
            if (op == 0) {
                int i = random.nextInt(n);
                int j = (i + 1 + random.nextInt(n - 1)) % n;
                boolean fresh = !cell(model, i, j, ordered);
                assertThat(set.add(i, j)).isEqualTo(fresh);
                model[ordered ? i : Math.min(i, j)][ordered ? j : Math.max(i, j)] = true;
            } else {
                Region region = randomRegion(random, n);
                if (op == 3) {
                    long missing = 0;
                    for (int i = region.r0(); i < region.r1(); i++) {
                        for (int j = Math.max(region.c0(), i + 1); j < region.c1(); j++) {
                            missing += (model[i][j] ? 0 : 1) + (ordered && !model[j][i] ? 1 : 0);
                        }
                    }
                    assertThat(set.missing(region)).as("missing in %s", region).isEqualTo(missing);
                    continue;
                }
                for (int i = region.r0(); i < region.r1(); i++) {
                    for (int j = Math.max(region.c0(), i + 1); j < region.c1(); j++) {
                        model[i][j] = op == 1;
                        if (ordered) {
                            model[j][i] = op == 1;
                        }
                    }
                }
                if (op == 1) {
                    set.addRegion(region);
                } else {
                    set.removeRegion(region);
                }
            }
            assertMatches(set, model, ordered);
        }
        assertMatches(set, model, ordered);
        PairSet complement = set.complement();
        assertThat(complement.size()).isEqualTo(set.total() - set.size());
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (i != j) {
                    assertThat(complement.contains(i, j)).isNotEqualTo(set.contains(i, j));
                }
            }
        }
        PairSet back = new PairSet(n, ordered, 1 << tileShift);
        back.addCompressed(set.toCompressed());
        assertSameMembers(back, set);
        PairSet union = complement.copy();
        union.addAll(set);
        assertThat(union.isComplete()).isTrue();
        assertThat(set.mask().size()).isEqualTo(set.size());
    }

    /**
     * Above the old cap (2³¹ pairs): sets of 100,000 items (about 5·10⁹ pairs, both orientations too) built sparsely
     * from pairs and small regions scattered over the whole matrix, checked against a plain set of the same pairs.
     */
    @Property(tries = 20)
    void setsAboveTheOldCap_builtSparsely_matchAPlainSetOfTheirPairs(@ForAll boolean ordered, @ForAll long seed) {
        int n = 100_000;
        Random random = new Random(seed);
        PairSet set = new PairSet(n, ordered);
        java.util.Set<Long> model = new java.util.HashSet<>();
        for (int step = 0; step < 300; step++) {
            int r0 = random.nextInt(n - 40);
            int c0 = random.nextInt(n - 40);
            if (random.nextBoolean()) {
                int j = c0 == r0 ? c0 + 1 : c0;
                set.add(r0, j);
                model.add(key(r0, j, ordered));
            } else {
                Region region = new Region(r0, r0 + 1 + random.nextInt(30), c0, c0 + 1 + random.nextInt(30), 0);
                set.addRegion(region);
                for (int i = region.r0(); i < region.r1(); i++) {
                    for (int j = Math.max(region.c0(), i + 1); j < region.c1(); j++) {
                        model.add(key(i, j, ordered));
                        if (ordered) {
                            model.add(key(j, i, true));
                        }
                    }
                }
            }
        }
        assertThat(set.size()).isEqualTo(model.size());
        assertThat(set.missing(Region.root(n))).isEqualTo(set.total() - model.size());
        PairSet back = new PairSet(n, ordered);
        back.addCompressed(set.toCompressed());
        for (long pair : model) {
            assertThat(set.contains((int) (pair >>> 32), (int) pair)).isTrue();
            assertThat(back.contains((int) (pair >>> 32), (int) pair)).isTrue();
        }
        for (int probe = 0; probe < 2000; probe++) {
            int i = random.nextInt(n);
            int j = random.nextInt(n);
            if (i != j) {
                assertThat(set.contains(i, j)).isEqualTo(model.contains(key(i, j, ordered)));
            }
        }
        assertThat(back.size()).isEqualTo(model.size());
        assertThat(set.bitmapTiles()).isLessThanOrEqualTo(model.size());
    }

    private static long key(int i, int j, boolean ordered) {
        return ordered ? (long) i << 32 | j : (long) Math.min(i, j) << 32 | Math.max(i, j);
    }

    private static Region randomRegion(Random random, int n) {
        int r0 = random.nextInt(n);
        int r1 = r0 + 1 + random.nextInt(n - r0);
        int c0 = random.nextInt(n);
        int c1 = c0 + 1 + random.nextInt(n - c0);
        return new Region(r0, r1, c0, c1, 0);
    }

    private static boolean cell(boolean[][] model, int i, int j, boolean ordered) {
        return ordered ? model[i][j] : model[Math.min(i, j)][Math.max(i, j)];
    }

    private static void assertMatches(PairSet set, boolean[][] model, boolean ordered) {
        long size = 0;
        PairMask mask = set.mask();
        for (int i = 0; i < model.length; i++) {
            for (int j = 0; j < model.length; j++) {
                if (i == j || !ordered && j < i) {
                    continue;
                }
                assertThat(set.contains(i, j)).as("(%d, %d)", i, j).isEqualTo(model[i][j]);
                assertThat(mask.contains(i, j)).isEqualTo(model[i][j]);
                size += model[i][j] ? 1 : 0;
            }
        }
        assertThat(set.size()).isEqualTo(size);
        assertThat(set.isComplete()).isEqualTo(size == set.total());
    }

    private static void assertSameMembers(PairSet actual, PairSet expected) {
        assertThat(actual.size()).isEqualTo(expected.size());
        for (int i = 0; i < expected.items(); i++) {
            for (int j = 0; j < expected.items(); j++) {
                if (i != j) {
                    assertThat(actual.contains(i, j)).as("(%d, %d)", i, j).isEqualTo(expected.contains(i, j));
                }
            }
        }
    }

    @Test
    void aMillionItems_takeATableOfTiles_andBitmapsOnlyWhereTilesAreHalfDone() {
        int n = 1_000_000;
        PairSet set = new PairSet(n);
        set.addRegion(new Region(0, n, 0, n / 2, 0)); // a whole band: tiles become full without bitmaps
        set.add(600_000, 900_000);
        assertThat(set.size()).isEqualTo(new Region(0, n, 0, n / 2, 0).pairs() + 1);
        assertThat(set.contains(10, 400_000)).isTrue();
        assertThat(set.contains(10, 600_000)).isFalse();
        assertThat(set.missing(Region.root(n))).isEqualTo(set.total() - set.size());
        PairSet back = new PairSet(n);
        back.addCompressed(set.toCompressed());
        assertThat(back.size()).isEqualTo(set.size());
        assertThat(back.contains(600_000, 900_000)).isTrue();
    }

    @Test
    void aTileWithBitsOutsideTheRun_orAnUnknownState_isRefused() {
        PairSet other = new PairSet(40, false, 64);
        other.add(3, 39);
        PairSet smaller = new PairSet(30, false, 64);
        assertThatThrownBy(() -> smaller.addCompressed(other.toCompressed()))
                .hasMessageContaining("outside the run's pairs");
        Deflater deflater = new Deflater();
        deflater.setInput(new byte[] {7});
        deflater.finish();
        byte[] bad = new byte[64];
        int length = deflater.deflate(bad);
        deflater.end();
        assertThatThrownBy(() -> smaller.addCompressed(Arrays.copyOf(bad, length)))
                .hasMessageContaining("state 7");
        assertThatThrownBy(() -> new PairSet(3000).addCompressed(new PairSet(30).toCompressed()))
                .hasMessageContaining("cut short");
    }

    @Property(tries = 100)
    void addAll_isTheUnion(@ForAll @IntRange(min = 2, max = 200) int n,
                           @ForAll @IntRange(min = 0, max = 100) int percent, @ForAll long seed) {
        PairSet a = randomSet(n, percent, seed);
        PairSet b = randomSet(n, percent, seed + 1);
        PairSet union = a.copy();
        union.addAll(b);
        long expected = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                boolean in = a.contains(i, j) || b.contains(i, j);
                assertThat(union.contains(i, j)).isEqualTo(in);
                expected += in ? 1 : 0;
            }
        }
        assertThat(union.size()).isEqualTo(expected);
        assertThatThrownBy(() -> union.addAll(new PairSet(n + 1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void addCompressed_aSetOfALargerRun_orNoDeflateData_isRefused() {
        PairSet large = new PairSet(100);
        large.add(90, 99);
        assertThatThrownBy(() -> new PairSet(20).addCompressed(large.toCompressed()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PairSet(20).addCompressed(new byte[] {1, 2, 3, 4}))
                .isInstanceOf(IllegalArgumentException.class);
        byte[] zeros = new byte[1 << 20];
        Deflater deflater = new Deflater();
        deflater.setInput(zeros);
        deflater.finish();
        byte[] bomb = new byte[4096];
        int length = deflater.deflate(bomb);
        deflater.end();
        assertThatThrownBy(() -> new PairSet(50).addCompressed(Arrays.copyOf(bomb, length)))
                .hasMessageContaining("inflates to more than");
    }

    @Property(tries = 100)
    void missingRegions_holdEveryMissingPair_andDoneOnesOnlyInPartlyDoneLeaves(
            @ForAll @IntRange(min = 2, max = 200) int n, @ForAll @IntRange(min = 1, max = 20) int tile,
            @ForAll @IntRange(min = 0, max = 100) int percent, @ForAll long seed) {
        PairSet done = randomSet(n, percent, seed);
        PairCoverage coverage = new PairCoverage(n);
        done.missingRegions(tile, region -> {
            assertThat(done.missing(region)).isPositive();
            assertThat(done.missing(region) == region.pairs() || region.isLeaf(tile)).as("%s", region).isTrue();
            coverage.add(region);
        });
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                assertThat(done.contains(i, j) || coverage.covers(i, j)).as("(%d, %d)", i, j).isTrue();
            }
        }
    }

    /** A set holding about {@code percent} % of the pairs, in runs (as a journal's are) and scattered. */
    static PairSet randomSet(int n, int percent, long seed) {
        Random random = new Random(seed);
        PairSet set = new PairSet(n);
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (random.nextInt(100) < percent) {
                    set.add(i, j);
                }
            }
        }
        return set;
    }
}
