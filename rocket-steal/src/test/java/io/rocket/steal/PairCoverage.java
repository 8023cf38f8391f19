package io.rocket.steal;

import java.util.BitSet;

import static org.assertj.core.api.Assertions.assertThat;

/** Test helper: marks the pairs i &lt; j of regions of an n-item matrix, failing on a pair seen twice. */
final class PairCoverage {
    private final int n;
    private final BitSet seen;
    private long count;

    PairCoverage(int n) {
        this.n = n;
        this.seen = new BitSet(n * n);
    }

    /** Marks every pair of {@code region}, which must hold at least one. */
    void add(Region region) {
        assertThat(region.hasPairs()).as("%s has pairs", region).isTrue();
        for (int i = region.r0(); i < region.r1(); i++) {
            for (int j = Math.max(region.c0(), i + 1); j < region.c1(); j++) {
                assertThat(seen.get(i * n + j)).as("pair (%d, %d) twice", i, j).isFalse();
                seen.set(i * n + j);
                count++;
            }
        }
    }

    /** Asserts that every pair of the matrix was marked (exactly once, as {@link #add} checks). */
    void assertComplete() {
        assertThat(count).isEqualTo((long) n * (n - 1) / 2);
    }

    /** Whether pair (i, j) was marked. */
    boolean covers(int i, int j) {
        return seen.get(i * n + j);
    }

    long count() {
        return count;
    }
}
