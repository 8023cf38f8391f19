package io.rocket.apps.phylogenetics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RobinsonFouldsTest {

    private static int rf(String a, String b) {
        return RobinsonFoulds.distance(NewickParser.parse(a), NewickParser.parse(b));
    }

    @Test
    void distance_identicalTrees_zero() {
        assertThat(rf("((A,B),(C,D),(E,F));", "((A,B),(C,D),(E,F));")).isZero();
    }

    @Test
    void distance_sameUnrootedTreeRootedDifferently_zero() {
        assertThat(rf("((A,B),(C,D),(E,F));", "(((E,F),(C,D)),(B,A));")).isZero();
        assertThat(rf("((A,B),C,(D,E));", "(A,(B,(C,(D,E))));")).isZero();
    }

    @Test
    void distance_oneSwap_two() {
        // splits AB|CDE, DE|ABC against AC|BDE, DE|ABC: one split differs on each side
        assertThat(rf("((A,B),C,(D,E));", "((A,C),B,(D,E));")).isEqualTo(2);
    }

    @Test
    void distance_twoSplitsDiffer_four() {
        assertThat(rf("((A,B),(C,D),(E,F));", "((A,C),(B,D),(E,F));")).isEqualTo(4);
    }

    @Test
    void distance_unresolvedAgainstResolved_countsMissingSplits() {
        assertThat(rf("(A,B,C,D,E);", "((A,B),C,(D,E));")).isEqualTo(2);
    }

    @Test
    void distance_maximallyDifferent_twoTimesNMinusThree() {
        assertThat(rf("((A,B),(C,D),(E,F));", "((A,C),(E,B),(D,F));")).isEqualTo(RobinsonFoulds.maxDistance(6));
    }

    @Test
    void distance_differentLeaves_throwsNamingThem() {
        assertThatThrownBy(() -> rf("((A,B),C,D);", "((A,B),C,X);"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("trees have different leaves: only in the first [D], only in the second [X]");
    }

    @Test
    void distance_duplicateLeaf_throws() {
        assertThatThrownBy(() -> rf("((A,B),A,D);", "((A,B),C,D);"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'A' twice");
    }
}
