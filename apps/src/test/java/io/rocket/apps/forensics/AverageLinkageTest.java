package io.rocket.apps.forensics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class AverageLinkageTest {

    /** Naive O(n³) UPGMA from the definition: mean of all cross-pair similarities, stop below the threshold. */
    private static int[] naiveCut(double[] s, int n, double threshold) {
        List<List<Integer>> clusters = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            clusters.add(new ArrayList<>(List.of(i)));
        }
        while (clusters.size() > 1) {
            double best = Double.NEGATIVE_INFINITY;
            int ba = -1;
            int bb = -1;
            for (int a = 0; a < clusters.size(); a++) {
                for (int b = a + 1; b < clusters.size(); b++) {
                    double sum = 0;
                    for (int i : clusters.get(a)) {
                        for (int j : clusters.get(b)) {
                            sum += s[i * n + j];
                        }
                    }
                    double mean = sum / (clusters.get(a).size() * clusters.get(b).size());
                    if (mean > best) {
                        best = mean;
                        ba = a;
                        bb = b;
                    }
                }
            }
            if (best < threshold) {
                break;
            }
            clusters.get(ba).addAll(clusters.remove(bb));
        }
        int[] ids = new int[n];
        for (int c = 0; c < clusters.size(); c++) {
            for (int i : clusters.get(c)) {
                ids[i] = c;
            }
        }
        return ids;
    }

    private static double[] randomSymmetric(int n, SplittableRandom random) {
        double[] s = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                s[i * n + j] = random.nextDouble() * 100;
                s[j * n + i] = s[i * n + j];
            }
        }
        return s;
    }

    @Property(tries = 60)
    void cut_randomMatrices_matchesNaiveUpgma(@ForAll @IntRange(min = 1, max = 25) int n,
            @ForAll @LongRange(min = 0, max = 100_000) long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] s = randomSymmetric(n, random);
        Dendrogram d = AverageLinkage.cluster(s, n);
        for (double threshold : new double[] {30, 50, 60, 70}) {
            double ari = AdjustedRandIndex.of(d.cut(threshold), naiveCut(s, n, threshold));
            assertThat(ari).as("threshold %s", threshold).isEqualTo(1.0);
        }
    }

    @Test
    void cluster_threeObviousGroups_areFound() {
        int n = 9;
        int[] truth = {0, 1, 2, 0, 1, 2, 0, 1, 2};
        SplittableRandom random = new SplittableRandom(1);
        double[] s = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                s[i * n + j] = truth[i] == truth[j] ? 500 + 100 * random.nextDouble() : random.nextGaussian();
            }
        }
        int[] ids = AverageLinkage.cluster(s, n).cut(60);
        assertThat(ids).containsExactly(0, 1, 2, 0, 1, 2, 0, 1, 2);
    }

    @Test
    void cluster_chainOfSingleLinks_isNotMergedByAverage() {
        // 0–1 and 1–2 are similar but 0–2 is not: average linkage joins {0,1} (or {1,2}) and then averages
        // (100 + (−100))/2 = 0 below the threshold, unlike single linkage which would chain all three
        int n = 3;
        double[] s = {0, 100, -100, 100, 0, 90, -100, 90, 0};
        int[] ids = AverageLinkage.cluster(s, n).cut(60);
        assertThat(ids).containsExactly(0, 0, 1);
    }

    @Test
    void cluster_missingSimilarities_countAsZero() {
        int n = 3;
        double[] s = {0, 100, Double.NaN, 100, 0, Double.NaN, Double.NaN, Double.NaN, 0};
        assertThat(AverageLinkage.cluster(s, n).cut(60)).containsExactly(0, 0, 1);
        assertThat(AverageLinkage.cluster(s, n).cut(-1)).containsExactly(0, 0, 0);
    }

    @Test
    void cluster_allEqual_terminatesWithOneClusterAtOrBelowThatValue() {
        int n = 50;
        double[] s = new double[n * n];
        java.util.Arrays.fill(s, 7.0);
        Dendrogram d = AverageLinkage.cluster(s, n);
        assertThat(d.merges()).isEqualTo(n - 1);
        assertThat(d.cut(7.0)).containsOnly(0);
        assertThat(d.cut(7.5)).doesNotHaveDuplicates();
    }

    @Test
    void cluster_2000Items_isQuick() {
        int n = 2000;
        SplittableRandom random = new SplittableRandom(3);
        double[] s = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                s[i * n + j] = (i % 40 == j % 40) ? 300 + random.nextDouble() * 100 : random.nextGaussian() * 3;
                s[j * n + i] = s[i * n + j];
            }
        }
        int[] truth = new int[n];
        for (int i = 0; i < n; i++) {
            truth[i] = i % 40;
        }
        assertThat(AdjustedRandIndex.of(AverageLinkage.cluster(s, n).cut(60), truth)).isEqualTo(1.0);
    }

    @Test
    void index_condensedLayout_isRowMajorUpperTriangle() {
        int n = 5;
        int k = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                assertThat(AverageLinkage.index(i, j, n)).isEqualTo(k++);
            }
        }
        assertThat(AverageLinkage.condensedLength(n)).isEqualTo(k);
    }
}
