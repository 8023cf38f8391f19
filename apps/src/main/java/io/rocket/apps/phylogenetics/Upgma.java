package io.rocket.apps.phylogenetics;

import java.util.List;

/**
 * UPGMA (average-linkage clustering): a rooted, ultrametric tree, offered besides neighbour joining. Each step
 * merges the closest pair at height d/2; the merged cluster's distance to another is the size-weighted mean of
 * its parts' distances. O(n³) time, one packed copy of the matrix. Branch lengths are height differences (never
 * negative: a child higher than its parent, possible on non-ultrametric data, gets length zero).
 */
public final class Upgma {

    private Upgma() {
    }

    /** The UPGMA tree of {@code matrix}, leaves labelled with its names; the root is the last merge. */
    public static TreeNode build(DistanceMatrix matrix) {
        int n = matrix.size();
        if (n == 0) {
            throw new IllegalArgumentException("cannot build a tree of zero items");
        }
        WorkingMatrix d = new WorkingMatrix(matrix);
        TreeNode[] nodes = new TreeNode[n];
        int[] sizes = new int[n];
        double[] heights = new double[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = TreeNode.leaf(matrix.name(i), Double.NaN);
            sizes[i] = 1;
        }
        while (d.size() > 1) {
            int m = d.size();
            double[] packed = d.packed();
            int bestI = 1;
            int bestJ = 0;
            double best = Double.POSITIVE_INFINITY;
            for (int i = 1; i < m; i++) {
                int row = WorkingMatrix.rowStart(i);
                for (int j = 0; j < i; j++) {
                    if (packed[row + j] < best) {
                        best = packed[row + j];
                        bestI = i;
                        bestJ = j;
                    }
                }
            }
            double height = best / 2;
            nodes[bestI].setBranchLength(Math.max(0, height - heights[bestI]));
            nodes[bestJ].setBranchLength(Math.max(0, height - heights[bestJ]));
            TreeNode merged = TreeNode.internal(List.of(nodes[bestJ], nodes[bestI]), null, Double.NaN);
            double wi = sizes[bestI];
            double wj = sizes[bestJ];
            for (int k = 0; k < m; k++) {
                if (k != bestI && k != bestJ) {
                    d.set(bestJ, k, (wi * d.get(bestI, k) + wj * d.get(bestJ, k)) / (wi + wj));
                }
            }
            sizes[bestJ] += sizes[bestI];
            heights[bestJ] = height;
            nodes[bestJ] = merged;
            int last = m - 1;
            d.remove(bestI);
            sizes[bestI] = sizes[last];
            heights[bestI] = heights[last];
            nodes[bestI] = nodes[last];
        }
        return nodes[0];
    }
}
