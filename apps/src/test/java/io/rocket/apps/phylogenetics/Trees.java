package io.rocket.apps.phylogenetics;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** Test helpers for trees: path lengths between leaves. */
final class Trees {

    private Trees() {
    }

    /** Sum of branch lengths on the path between every pair of leaves, keyed "a|b". */
    static Map<String, Double> patristic(TreeNode root) {
        Map<TreeNode, TreeNode> parent = new IdentityHashMap<>();
        for (TreeNode node : root.postOrder()) {
            for (TreeNode child : node.children()) {
                parent.put(child, node);
            }
        }
        List<TreeNode> leaves = root.leaves();
        Map<String, Double> out = new HashMap<>();
        for (TreeNode a : leaves) {
            Map<TreeNode, Double> up = new IdentityHashMap<>();
            double sum = 0;
            for (TreeNode n = a; n != null; n = parent.get(n)) {
                up.put(n, sum);
                sum += n == root ? 0 : n.branchLength();
            }
            for (TreeNode b : leaves) {
                double fromB = 0;
                TreeNode n = b;
                while (!up.containsKey(n)) {
                    fromB += n.branchLength();
                    n = parent.get(n);
                }
                out.put(a.label() + "|" + b.label(), fromB + up.get(n));
            }
        }
        return out;
    }
}
