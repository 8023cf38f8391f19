package io.rocket.apps.query;

import io.rocket.cli.QueryBlock;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link BestReferences}: the K best references of each query, whatever the order the results arrive in. */
class BestReferencesTest {

    /** Items 0..2 are queries only, 3..4 in both lists, 5..9 references only. */
    private static final QueryBlock BLOCK = new QueryBlock(10, 5, 3);

    private static double score(int i, int j) {
        return ((i * 7 + j * 13) % 11) + (i + j) / 100.0;
    }

    /** The expected matches of {@code query}: every reference but itself, sorted, the first k. */
    private static List<BestReferences.Match> expected(int query, int k, boolean smallerIsBetter) {
        List<BestReferences.Match> all = new ArrayList<>();
        for (int r = BLOCK.referenceStart(); r < BLOCK.items(); r++) {
            if (r != query) {
                all.add(new BestReferences.Match(r, score(Math.min(query, r), Math.max(query, r))));
            }
        }
        Comparator<BestReferences.Match> order = Comparator.comparingDouble(BestReferences.Match::score);
        all.sort((smallerIsBetter ? order : order.reversed()).thenComparingInt(BestReferences.Match::reference));
        return all.subList(0, Math.min(k, all.size()));
    }

    @Test
    void keepsTheKBestOfEachQuery_inAnyArrivalOrder_andBothWaysForItemsInBothLists() {
        List<int[]> pairs = new ArrayList<>();
        for (int i = 0; i < BLOCK.items(); i++) {
            for (int j = i + 1; j < BLOCK.items(); j++) {
                boolean counted = (BLOCK.isQuery(i) && BLOCK.isReference(j)) || (BLOCK.isQuery(j)
                        && BLOCK.isReference(i));
                if (counted) {
                    pairs.add(new int[] {i, j});
                }
            }
        }
        for (boolean smallerIsBetter : new boolean[] {false, true}) {
            for (int k : new int[] {1, 3, 50}) {
                Collections.shuffle(pairs, new Random(k));
                BestReferences<Integer, Double> best = new BestReferences<>(BLOCK, k, Double::doubleValue,
                        smallerIsBetter);
                for (int[] p : pairs) {
                    best.accept(p[0], p[1], p[0], p[1], score(p[0], p[1]));
                }
                best.accept(0, 6, 0, 6, Double.NaN); // a NaN score is never a match
                for (int q = 0; q < BLOCK.queries(); q++) {
                    assertThat(best.matches(q)).as("query %d, k %d", q, k).isEqualTo(expected(q, k, smallerIsBetter));
                }
            }
        }
    }

    @Test
    void aQueryWithNoResultHasNoMatch() {
        BestReferences<Integer, Double> best = new BestReferences<>(BLOCK, 2, Double::doubleValue, false);
        best.accept(1, 7, 1, 7, 5.0);
        assertThat(best.matches(0)).isEmpty();
        assertThat(best.matches(1)).containsExactly(new BestReferences.Match(7, 5.0));
    }
}
