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
        assertThat(back.toBytes()).isEqualTo(set.toBytes());
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
