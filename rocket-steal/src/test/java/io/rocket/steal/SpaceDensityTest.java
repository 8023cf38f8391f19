package io.rocket.steal;

import io.rocket.core.summary.PairDensity;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A space's density (the most of its pairs any k items hold), against every subset of a small space's items: never
 * below the truth, so the summary's R lower bound stays a bound; equal to it where the formula is exact.
 */
class SpaceDensityTest {
    private static final int N = 10;

    /** The most pairs of {@code space} among any {@code k} of its items, by trying every subset. */
    private static long densest(PairSpace space, int k) {
        long best = 0;
        for (int set = 0; set < 1 << space.items(); set++) {
            if (Integer.bitCount(set) != k) {
                continue;
            }
            long pairs = 0;
            for (int i = 0; i < space.items(); i++) {
                for (int j = i + 1; j < space.items(); j++) {
                    if ((set >> i & 1) == 1 && (set >> j & 1) == 1 && space.contains(i, j)) {
                        pairs += space.ordered() ? 2 : 1;
                    }
                }
            }
            best = Math.max(best, pairs);
        }
        return best;
    }

    private static void exact(PairSpace space) {
        PairDensity d = space.density();
        for (int k = 0; k <= space.items(); k++) {
            assertThat(d.mostPairs(k)).as("%s, k = %d", space, k).isEqualTo(densest(space, k));
        }
        assertThat(d.mostPairs(4L * space.items())).isEqualTo(space.pairs());
    }

    private static void atLeast(PairSpace space) {
        PairDensity d = space.density();
        for (int k = 0; k <= space.items(); k++) {
            assertThat(d.mostPairs(k)).as("%s, k = %d", space, k).isGreaterThanOrEqualTo(densest(space, k));
        }
    }

    @Test
    void theTriangle_holdsEveryPairOfItsItems() {
        exact(PairSpace.triangle(N));
        assertThat(PairSpace.triangle(100_000).density().mostPairs(600)).isEqualTo(600L * 599 / 2);
    }

    @Test
    void aRectangle_ofOtherReferences_holdsAboutAQuarterOfTheSquare() {
        exact(PairSpace.rectangle(N, 4, 4));  // 4 queries x 6 references
        exact(PairSpace.rectangle(N, 5, 5));
        assertThat(PairSpace.rectangle(2000, 1000, 1000).density().mostPairs(600)).isEqualTo(300L * 300);
    }

    @Test
    void aRectangle_withSharedItems_countsTheirPairsOnce() {
        exact(PairSpace.rectangle(N, 6, 3)); // 3 queries only, 3 in both, 4 references only
        exact(PairSpace.rectangle(N, 8, 2));
        exact(PairSpace.rectangle(N, N, 0)); // everything shared: the triangle
    }

    @Test
    void orderedSpaces_holdBothOrientations() {
        exact(PairSpace.triangle(N).ordered(true));
        exact(PairSpace.rectangle(N, 6, 3).ordered(true));
    }

    @Test
    void aPairList_isBoundedByItsBusiestItem_andItsLength() {
        List<int[]> star = List.of(new int[]{0, 1}, new int[]{0, 2}, new int[]{0, 3}, new int[]{0, 4},
                new int[]{5, 6}, new int[]{7, 8});
        atLeast(PairSpace.listed(N, star));
        PairDensity d = PairSpace.listed(N, star).density();
        assertThat(d.mostPairs(2)).isEqualTo(1);           // 2 items x 4 pairs each / 2, over the triangle's 1
        assertThat(d.mostPairs(3)).isEqualTo(3);           // 3 items: at most 3 pairs of 3 items
        assertThat(d.mostPairs(N)).isEqualTo(6);           // never more than the list
        List<int[]> path = List.of(new int[]{0, 1}, new int[]{1, 2}, new int[]{2, 3}, new int[]{3, 4},
                new int[]{4, 5}, new int[]{5, 6});
        atLeast(PairSpace.listed(N, path).ordered(true));
        assertThat(PairSpace.listed(N, path).density().mostPairs(4)).isEqualTo(4); // degree 2: k pairs at most
    }

    @Test
    void aUnion_isAtMostTheSumOfItsParts_andTheTriangle() {
        PairSpace union = PairSpace.union(List.of(PairSpace.rectangle(N, 3, 3), PairSpace.rectangle(N, 8, 6),
                PairSpace.listed(N, List.of(new int[]{1, 2}, new int[]{7, 8}))));
        atLeast(union);
        PairSpace whole = PairSpace.union(List.of(PairSpace.triangle(N), PairSpace.rectangle(N, 5, 5)));
        exact(whole);
    }
}
