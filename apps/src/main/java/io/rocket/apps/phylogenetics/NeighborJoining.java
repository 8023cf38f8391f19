package io.rocket.apps.phylogenetics;

import java.util.List;

/**
 * Neighbour joining (Saitou and Nei 1987, in the form of Studier and Keppler 1988): the default tree builder of
 * CVTree. Each step joins the pair minimising Q(i, j) = (m − 2)·d(i, j) − r_i − r_j, with r the row sums kept
 * up to date incrementally; O(n³) time and one packed copy of the matrix. On an additive matrix it recovers the
 * tree and its branch lengths exactly.
 *
 * <p>The result is unrooted, returned as a root with three children (two for n = 2). A negative branch length
 * (possible on non-additive data) is set to zero and the difference moved to its sibling, so the distance between
 * the two joined nodes is kept. Ties in Q go to the first pair in scan order, so results are deterministic.
 */
public final class NeighborJoining {

    private NeighborJoining() {
    }

    /** The neighbour-joining tree of {@code matrix}, leaves labelled with its names. */
    public static TreeNode build(DistanceMatrix matrix) {
        int n = matrix.size();
        if (n == 0) {
            throw new IllegalArgumentException("cannot build a tree of zero items");
        }
        if (n == 1) {
            return TreeNode.leaf(matrix.name(0), Double.NaN);
        }
        if (n == 2) {
            double half = matrix.get(0, 1) / 2;
            return TreeNode.internal(List.of(TreeNode.leaf(matrix.name(0), half), TreeNode.leaf(matrix.name(1), half)),
                    null, Double.NaN);
        }
        WorkingMatrix d = new WorkingMatrix(matrix);
        TreeNode[] nodes = new TreeNode[n];
        double[] r = new double[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = TreeNode.leaf(matrix.name(i), Double.NaN);
            for (int k = 0; k < n; k++) {
                r[i] += d.get(i, k);
            }
        }
        while (d.size() > 3) {
            join(d, nodes, r);
        }
        double d01 = d.get(0, 1);
        double d02 = d.get(0, 2);
        double d12 = d.get(1, 2);
        nodes[0].setBranchLength(Math.max(0, (d01 + d02 - d12) / 2));
        nodes[1].setBranchLength(Math.max(0, (d01 + d12 - d02) / 2));
        nodes[2].setBranchLength(Math.max(0, (d02 + d12 - d01) / 2));
        return TreeNode.internal(List.of(nodes[0], nodes[1], nodes[2]), null, Double.NaN);
    }

    /** One agglomeration step: joins the best pair into the lower slot and removes the higher one. */
    private static void join(WorkingMatrix d, TreeNode[] nodes, double[] r) {
        int m = d.size();
        double[] packed = d.packed();
        int bestI = 1;
        int bestJ = 0;
        double bestQ = Double.POSITIVE_INFINITY;
        for (int i = 1; i < m; i++) {
            int row = WorkingMatrix.rowStart(i);
            double ri = r[i];
            for (int j = 0; j < i; j++) {
                double q = (m - 2) * packed[row + j] - ri - r[j];
                if (q < bestQ) {
                    bestQ = q;
                    bestI = i;
                    bestJ = j;
                }
            }
        }
        double dij = d.get(bestI, bestJ);
        double li = dij / 2 + (r[bestI] - r[bestJ]) / (2.0 * (m - 2));
        double lj = dij - li;
        if (li < 0) {
            lj = dij;
            li = 0;
        } else if (lj < 0) {
            li = dij;
            lj = 0;
        }
        nodes[bestI].setBranchLength(li);
        nodes[bestJ].setBranchLength(lj);
        TreeNode joined = TreeNode.internal(List.of(nodes[bestJ], nodes[bestI]), null, Double.NaN);
        double rJoined = 0;
        for (int k = 0; k < m; k++) {
            if (k == bestI || k == bestJ) {
                continue;
            }
            double dik = d.get(bestI, k);
            double djk = d.get(bestJ, k);
            double duk = (dik + djk - dij) / 2;
            r[k] += duk - dik - djk;
            d.set(bestJ, k, duk);
            rJoined += duk;
        }
        r[bestJ] = rJoined;
        nodes[bestJ] = joined;
        int last = m - 1;
        d.remove(bestI);
        r[bestI] = r[last];
        nodes[bestI] = nodes[last];
    }
}
