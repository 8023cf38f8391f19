package io.rocket.apps.phylogenetics;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Robinson–Foulds distance between two unrooted trees on the same leaf set, matched by leaf label: the number of
 * non-trivial splits (bipartitions of the leaves cut by an internal edge) found in one tree but not the other. It
 * is 0 for topologically equal trees and at most 2(n − 3) for binary trees on n leaves. Rooted inputs are treated
 * as unrooted (the two edges at a binary root give one split); branch lengths and internal labels are ignored.
 */
public final class RobinsonFoulds {

    private RobinsonFoulds() {
    }

    /** The RF distance between {@code a} and {@code b}; their leaf label sets must be equal and duplicate-free. */
    public static int distance(TreeNode a, TreeNode b) {
        List<String> labelsA = a.leafLabels();
        Map<String, Integer> index = indexOf(labelsA, "first");
        Set<String> labelsB = new HashSet<>(b.leafLabels());
        if (labelsB.size() != b.leafLabels().size()) {
            indexOf(b.leafLabels(), "second"); // throws, naming the duplicate
        }
        if (!labelsB.equals(index.keySet())) {
            Set<String> onlyA = new TreeSet<>(index.keySet());
            onlyA.removeAll(labelsB);
            Set<String> onlyB = new TreeSet<>(labelsB);
            onlyB.removeAll(index.keySet());
            throw new IllegalArgumentException("trees have different leaves: only in the first " + onlyA
                    + ", only in the second " + onlyB);
        }
        Set<BitSet> splitsA = splits(a, index);
        Set<BitSet> splitsB = splits(b, index);
        int shared = 0;
        for (BitSet split : splitsA) {
            if (splitsB.contains(split)) {
                shared++;
            }
        }
        return splitsA.size() + splitsB.size() - 2 * shared;
    }

    /** The largest RF distance between binary unrooted trees on {@code leaves} leaves. */
    public static int maxDistance(int leaves) {
        return Math.max(0, 2 * (leaves - 3));
    }

    /**
     * The non-trivial splits of {@code tree}, each stored as the side that does not hold leaf 0, so that a split
     * and its complement compare equal.
     */
    static Set<BitSet> splits(TreeNode tree, Map<String, Integer> index) {
        int n = index.size();
        Map<TreeNode, BitSet> below = new IdentityHashMap<>();
        Set<BitSet> out = new HashSet<>();
        for (TreeNode node : tree.postOrder()) {
            BitSet leaves = new BitSet(n);
            if (node.isLeaf()) {
                leaves.set(index.get(node.label()));
            } else {
                for (TreeNode child : node.children()) {
                    leaves.or(below.remove(child));
                }
            }
            below.put(node, leaves);
            int size = leaves.cardinality();
            if (node != tree && size >= 2 && size <= n - 2) {
                BitSet split = (BitSet) leaves.clone();
                if (split.get(0)) {
                    split.flip(0, n);
                }
                out.add(split);
            }
        }
        return out;
    }

    private static Map<String, Integer> indexOf(List<String> labels, String which) {
        List<String> sorted = new ArrayList<>(labels);
        sorted.sort(null);
        Map<String, Integer> index = new HashMap<>();
        for (String label : sorted) {
            if (index.putIfAbsent(label, index.size()) != null) {
                throw new IllegalArgumentException("the " + which + " tree has the leaf '" + label + "' twice");
            }
        }
        return index;
    }
}
