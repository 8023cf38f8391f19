package io.rocket.apps.forensics;

import java.io.PrintStream;
import java.util.SplittableRandom;

/**
 * Times clustering from kept pairs against the dense clustering, for docs/benchmarks.md: n photos in cameras of 6
 * (every same-camera pair kept, PCE 100–1000) plus n cross-camera pairs that passed a low {@code --min-score}
 * (PCE 10–50), cut at 60. Run after {@code mvn -pl apps -am test-compile}:
 * {@code java -cp apps/target/classes:apps/target/test-classes io.rocket.apps.forensics.GraphClusterBench N [dense]}.
 */
public final class GraphClusterBench {

    private static final int PER_CAMERA = 6;

    private GraphClusterBench() {
    }

    /**
     * Prints three timings of one clustering.
     *
     * @param args the number of photos, and {@code dense} to time the n × n clustering instead
     */
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        boolean dense = args.length > 1 && args[1].equals("dense");
        SplittableRandom random = new SplittableRandom(7);
        int pairs = n / PER_CAMERA * 15 + n;
        int[] left = new int[pairs];
        int[] right = new int[pairs];
        double[] score = new double[pairs];
        int e = 0;
        for (int first = 0; first + PER_CAMERA <= n; first += PER_CAMERA) {
            for (int a = first; a < first + PER_CAMERA; a++) {
                for (int b = a + 1; b < first + PER_CAMERA; b++) {
                    left[e] = a;
                    right[e] = b;
                    score[e++] = 100 + random.nextDouble() * 900;
                }
            }
        }
        while (e < pairs) {
            int a = random.nextInt(n);
            int b = random.nextInt(n);
            if (a / PER_CAMERA != b / PER_CAMERA) {
                left[e] = Math.min(a, b);
                right[e] = Math.max(a, b);
                score[e++] = 10 + random.nextDouble() * 40;
            }
        }
        PrintStream out = System.out;
        for (int rep = 0; rep < 3; rep++) {
            long start = System.nanoTime();
            int[] ids = dense ? denseCut(n, pairs, left, right, score)
                    : SparseAverageLinkage.cluster(n, pairs, left, right, score, 0, 60).cut(60);
            double seconds = (System.nanoTime() - start) / 1e9;
            int clusters = 0;
            for (int id : ids) {
                clusters = Math.max(clusters, id + 1);
            }
            out.printf("%s n=%d kept=%d clusters=%d %.2f s%n", dense ? "dense" : "sparse", n, pairs, clusters, seconds);
        }
    }

    private static int[] denseCut(int n, int pairs, int[] left, int[] right, double[] score) {
        double[] condensed = new double[AverageLinkage.condensedLength(n)];
        for (int e = 0; e < pairs; e++) {
            condensed[AverageLinkage.index(left[e], right[e], n)] = score[e];
        }
        return AverageLinkage.clusterCondensed(condensed, n).cut(60);
    }
}
