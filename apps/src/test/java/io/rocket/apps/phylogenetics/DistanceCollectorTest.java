package io.rocket.apps.phylogenetics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DistanceCollectorTest {

    private static DistanceCollector filled(int n, int failedItem, int[][] failedPairs) {
        DistanceCollector c = new DistanceCollector(List.of("t0", "t1", "t2", "t3", "t4", "t5").subList(0, n));
        for (int j = 1; j < n; j++) {
            for (int i = 0; i < j; i++) {
                boolean failed = i == failedItem || j == failedItem;
                for (int[] pair : failedPairs) {
                    failed |= pair[0] == i && pair[1] == j;
                }
                if (failed) {
                    c.failed(i, j, null, null, new RuntimeException("x"));
                } else {
                    c.accept(i, j, null, null, 0.01 * (10 * i + j));
                }
            }
        }
        return c;
    }

    @Test
    void complete_allArrived_fullMatrix() {
        DistanceCollector.Outcome o = filled(4, -1, new int[0][]).complete(Set.of());

        assertThat(o.dropped()).isEmpty();
        assertThat(o.matrix().names()).containsExactly("t0", "t1", "t2", "t3");
        assertThat(o.matrix().get(3, 1)).isEqualTo(0.13);
    }

    @Test
    void complete_oneItemFailed_dropsExactlyThatItem() {
        DistanceCollector.Outcome o = filled(5, 2, new int[0][]).complete(Set.of());

        assertThat(o.dropped()).containsExactly(2);
        assertThat(o.matrix().names()).containsExactly("t0", "t1", "t3", "t4");
        assertThat(o.matrix().get(2, 3)).isEqualTo(0.34);
    }

    @Test
    void complete_allButOneItemFailed_dropsTheFailedItemsAndKeepsTheLastOne() {
        DistanceCollector c = new DistanceCollector(List.of("t0", "t1", "t2"));
        c.failed(0, 1, null, null, new RuntimeException("x"));
        c.failed(0, 2, null, null, new RuntimeException("x"));
        c.failed(1, 2, null, null, new RuntimeException("x"));

        assertThat(c.complete(Set.of(0, 1, 2)).dropped()).containsExactly(0, 1, 2);
        assertThat(c.complete(Set.of(0, 1)).matrix().names()).containsExactly("t2");
    }

    @Test
    void complete_failedPairs_dropsOneTaxonPerPairPreferringTheWorst() {
        DistanceCollector.Outcome o = filled(6, -1, new int[][] {{0, 4}, {1, 4}, {2, 3}}).complete(Set.of());

        assertThat(o.dropped()).containsExactly(2, 4);
        assertThat(o.matrix().names()).containsExactly("t0", "t1", "t3", "t5");
    }
}
