package io.rocket.apps.forensics;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Clustering from the kept pairs alone gives the clusters of the dense average linkage on the matrix in which every
 * pair that was not kept holds the fill score, without the matrix.
 */
class SparseAverageLinkageTest {

    /** A similarity graph: the dense matrix and its kept pairs, the others holding the fill. */
    private record Graph(int n, double[] dense, int pairs, int[] left, int[] right, double[] score) {
    }

    /** Each pair is kept with probability {@code keep} (a score in [fill, fill + 100]), else it holds the fill. */
    private static Graph randomGraph(int n, double keep, double fill, SplittableRandom random) {
        double[] dense = new double[n * n];
        int max = n * (n - 1) / 2;
        int[] left = new int[max];
        int[] right = new int[max];
        double[] score = new double[max];
        int pairs = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double s = fill;
                if (random.nextDouble() < keep) {
                    s = fill + random.nextDouble() * 100;
                    left[pairs] = i;
                    right[pairs] = j;
                    score[pairs++] = s;
                }
                dense[i * n + j] = s;
                dense[j * n + i] = s;
            }
        }
        return new Graph(n, dense, pairs, left, right, score);
    }

    private static int[] sparseCut(Graph g, double fill, double threshold) {
        return SparseAverageLinkage.cluster(g.n(), g.pairs(), g.left(), g.right(), g.score(), fill, threshold)
                .cut(threshold);
    }

    @Property(tries = 200)
    void cut_fillBelowThreshold_equalsDenseAverageLinkage(@ForAll @IntRange(min = 1, max = 30) int n,
            @ForAll @DoubleRange(min = 0.05, max = 1.0) double keep,
            @ForAll @DoubleRange(min = -20, max = 20) double fill,
            @ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        Graph g = randomGraph(n, keep, fill, new SplittableRandom(seed));
        Dendrogram dense = AverageLinkage.cluster(g.dense(), n);
        for (double above : new double[] {1, 30, 50, 60, 70, 95}) {
            double threshold = fill + above;
            assertThat(sparseCut(g, fill, threshold)).as("threshold %s", threshold)
                    .containsExactly(dense.cut(threshold));
        }
    }

    @Property(tries = 50)
    void cut_pairsInAnyOrderOrGivenTwice_sameClusters(@ForAll @IntRange(min = 2, max = 25) int n,
            @ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Graph g = randomGraph(n, 0.4, 0, random);
        int[] left = new int[2 * g.pairs()];
        int[] right = new int[2 * g.pairs()];
        double[] score = new double[2 * g.pairs()];
        for (int e = 0; e < g.pairs(); e++) {
            // reversed order, each pair twice, the items swapped the second time
            int at = g.pairs() - 1 - e;
            left[2 * at] = g.left()[e];
            right[2 * at] = g.right()[e];
            left[2 * at + 1] = g.right()[e];
            right[2 * at + 1] = g.left()[e];
            score[2 * at] = g.score()[e];
            score[2 * at + 1] = g.score()[e];
        }
        int[] shuffled = SparseAverageLinkage.cluster(n, 2 * g.pairs(), left, right, score, 0, 50).cut(50);
        assertThat(shuffled).containsExactly(sparseCut(g, 0, 50));
    }

    @Test
    void cluster_groupsWithoutKeptPairsBetweenThem_neverMerge() {
        // two triangles of strong pairs, one weak kept pair between them: 1·20 + 8·0 over 9 stays below 60
        int[] left = {0, 0, 1, 3, 3, 4, 2};
        int[] right = {1, 2, 2, 4, 5, 5, 3};
        double[] score = {500, 400, 450, 300, 350, 320, 20};
        assertThat(SparseAverageLinkage.cluster(7, left.length, left, right, score, 0, 60).cut(60))
                .containsExactly(0, 0, 0, 1, 1, 1, 2);
    }

    @Test
    void cluster_averageCountsMissingPairsAsFill_chainIsNotMerged() {
        // 0–1 and 1–2 are strong, 0–2 was not kept: {0,1} with 2 averages (90 + 0) / 2 = 45 < 60
        int[] left = {0, 1};
        int[] right = {1, 2};
        double[] score = {100, 90};
        assertThat(SparseAverageLinkage.cluster(3, 2, left, right, score, 0, 60).cut(60)).containsExactly(0, 0, 1);
        // with a fill of 40 the same chain averages (90 + 40) / 2 = 65 and merges
        assertThat(SparseAverageLinkage.cluster(3, 2, left, right, score, 40, 60).cut(60)).containsExactly(0, 0, 0);
    }

    @Test
    void cluster_threeHundredThousandPhotosInCamerasOfSix_noMatrixAndTheTruth() {
        int n = 300_000; // the dense matrix would be 360 GB
        SplittableRandom random = new SplittableRandom(7);
        int perCamera = 6;
        int pairs = n / perCamera * 15 + n;
        int[] left = new int[pairs];
        int[] right = new int[pairs];
        double[] score = new double[pairs];
        int e = 0;
        for (int first = 0; first < n; first += perCamera) {
            for (int a = first; a < first + perCamera; a++) {
                for (int b = a + 1; b < first + perCamera; b++) {
                    left[e] = a;
                    right[e] = b;
                    score[e++] = 100 + random.nextDouble() * 900;
                }
            }
        }
        while (e < pairs) { // cross-camera pairs that passed a low --min-score
            int a = random.nextInt(n);
            int b = random.nextInt(n);
            if (a / perCamera != b / perCamera) {
                left[e] = a;
                right[e] = b;
                score[e++] = 10 + random.nextDouble() * 40;
            }
        }
        int[] truth = new int[n];
        for (int i = 0; i < n; i++) {
            truth[i] = i / perCamera;
        }
        assertThat(SparseAverageLinkage.cluster(n, pairs, left, right, score, 0, 60).cut(60)).isEqualTo(truth);
    }

    @Test
    void cluster_thresholdNotAboveFill_isRefused() {
        assertThatThrownBy(() -> SparseAverageLinkage.cluster(2, 0, new int[0], new int[0], new double[0], 0, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be above the fill score");
        assertThatThrownBy(() -> SparseAverageLinkage.cluster(2, 1, new int[] {0}, new int[] {2}, new double[] {1},
                0, 60)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pair (0, 2)");
    }
}
