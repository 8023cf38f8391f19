package io.rocket.steal;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StartSharesTest {

    @Property(tries = 300)
    void sharesOfAllRanks_coverEveryPairExactlyOnce(@ForAll @IntRange(min = 0, max = 300) int n,
                                                    @ForAll @IntRange(min = 1, max = 40) int tile,
                                                    @ForAll @IntRange(min = 1, max = 20) int nodes) {
        PairCoverage coverage = new PairCoverage(n);
        for (int rank = 0; rank < nodes; rank++) {
            StartShares.of(n, tile, nodes, rank).forEach(coverage::add);
        }
        coverage.assertComplete();
    }

    @Property(tries = 100)
    void sharesAreBalanced_whenTheMatrixIsLargeAgainstTheTiles(@ForAll @IntRange(min = 200, max = 2000) int n,
                                                                @ForAll @IntRange(min = 2, max = 16) int nodes) {
        long total = (long) n * (n - 1) / 2;
        for (int rank = 0; rank < nodes; rank++) {
            long pairs = StartShares.of(n, 8, nodes, rank).stream().mapToLong(Region::pairs).sum();
            // 8 regions per node at the cut: a share is off by at most about one region of the largest size.
            assertThat((double) pairs).as("rank %d of %d, n = %d", rank, nodes, n)
                    .isBetween(0.75 * total / nodes, 1.25 * total / nodes);
        }
    }

    @Property(tries = 300)
    void windowedSharesOfAllRanks_coverEveryPairExactlyOnce(@ForAll @IntRange(min = 0, max = 300) int n,
                                                            @ForAll @IntRange(min = 1, max = 40) int tile,
                                                            @ForAll @IntRange(min = 1, max = 20) int nodes,
                                                            @ForAll @IntRange(min = 1, max = 300) int window) {
        PairCoverage coverage = new PairCoverage(n);
        for (int rank = 0; rank < nodes; rank++) {
            StartShares.parts(n, tile, nodes, rank, window).forEach(part -> coverage.add(part.region()));
        }
        coverage.assertComplete();
    }

    @Property(tries = 100)
    void windowedShares_areBalanced_andWalkTheWindowsInOrder(@ForAll @IntRange(min = 200, max = 2000) int n,
                                                             @ForAll @IntRange(min = 2, max = 16) int nodes,
                                                             @ForAll @IntRange(min = 1, max = 16) int windowsAcross) {
        int window = Math.max(16, n / windowsAcross);
        long total = (long) n * (n - 1) / 2;
        for (int rank = 0; rank < nodes; rank++) {
            List<StartShares.Part> share = StartShares.parts(n, 8, nodes, rank, window);
            long pairs = share.stream().mapToLong(part -> part.region().pairs()).sum();
            assertThat((double) pairs).as("rank %d of %d, n = %d, window %d", rank, nodes, n, window)
                    .isBetween(0.75 * total / nodes, 1.25 * total / nodes);
            for (int k = 1; k < share.size(); k++) {
                assertThat(share.get(k).window()).isGreaterThanOrEqualTo(share.get(k - 1).window());
            }
        }
    }

    @Test
    void withWindowsSizedToTheCaches_everyNodeHasAPartOfEveryWindow() {
        int window = StartShares.windowFor(40);
        assertThat(window).isEqualTo(50);
        List<Region> windows = StartShares.windows(Region.root(400), 16, window);
        assertThat(windows).allSatisfy(w -> assertThat(Math.max(w.r1() - w.r0(), w.c1() - w.c0())).isLessThanOrEqualTo(50));
        for (int rank = 0; rank < 8; rank++) {
            assertThat(StartShares.parts(400, 16, 8, rank, window).stream().map(StartShares.Part::window).distinct()
                    .count()).as("windows rank %d has a part of", rank).isEqualTo(windows.size());
        }
    }

    @Test
    void oneWholeWindow_isThePlainStartShare() {
        for (int rank = 0; rank < 4; rank++) {
            assertThat(StartShares.parts(300, 8, 4, rank, 300).stream().map(StartShares.Part::region).toList())
                    .isEqualTo(StartShares.of(300, 8, 4, rank));
        }
    }

    @Test
    void aShareIsOneStretchOfTheCurve() {
        List<Region> cut = StartShares.cut(Region.root(512), 16, 8 * 4);
        for (int rank = 0; rank < 4; rank++) {
            List<Region> share = StartShares.of(512, 16, 4, rank);
            int first = cut.indexOf(share.get(0));
            assertThat(cut.subList(first, first + share.size())).isEqualTo(share);
        }
    }

    @Test
    void oneNodeStartsWithEverything_andBadRanksAreRefused() {
        List<Region> all = StartShares.of(100, 8, 1, 0);
        assertThat(all.stream().mapToLong(Region::pairs).sum()).isEqualTo(100L * 99 / 2);
        assertThatThrownBy(() -> StartShares.of(100, 8, 4, 4)).isInstanceOf(IllegalArgumentException.class);
    }

    @Property(tries = 200)
    void resumedShares_ofAllRanks_holdEveryMissingPairOnce(@ForAll @IntRange(min = 2, max = 200) int n,
                                                          @ForAll @IntRange(min = 1, max = 20) int tile,
                                                          @ForAll @IntRange(min = 1, max = 8) int nodes,
                                                          @ForAll @IntRange(min = 1, max = 200) int window,
                                                          @ForAll @IntRange(min = 0, max = 100) int percent,
                                                          @ForAll long seed) {
        PairSet done = PairSetTest.randomSet(n, percent, seed);
        PairCoverage coverage = new PairCoverage(n);
        for (int rank = 0; rank < nodes; rank++) {
            StartShares.parts(n, tile, nodes, rank, window, done).forEach(part -> coverage.add(part.region()));
        }
        PairCoverage single = new PairCoverage(n);
        StartShares.missing(done, tile).forEach(part -> single.add(part.region()));
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                assertThat(done.contains(i, j) || coverage.covers(i, j)).as("(%d, %d)", i, j).isTrue();
                assertThat(done.contains(i, j) || single.covers(i, j)).as("(%d, %d)", i, j).isTrue();
            }
        }
    }
}
