package io.rocket.apps.phylogenetics;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;

/**
 * A node of a phylogenetic tree: a labelled leaf, or an internal node with children; each node carries the length
 * of the edge to its parent ({@code NaN} when unknown, e.g. at the root). A tree is its root node. Unrooted trees
 * (neighbour joining) are represented rooted at an internal node with three children.
 *
 * <p>Traversals are iterative, so trees thousands of levels deep (caterpillars) do not overflow the stack.
 */
public final class TreeNode {

    private final String label;
    private final List<TreeNode> children;
    private double branchLength;

    private TreeNode(String label, List<TreeNode> children, double branchLength) {
        this.label = label;
        this.children = children;
        this.branchLength = branchLength;
    }

    /** A leaf named {@code label} at the end of an edge of length {@code branchLength} (NaN if unknown). */
    public static TreeNode leaf(String label, double branchLength) {
        if (label == null) {
            throw new IllegalArgumentException("a leaf needs a label");
        }
        return new TreeNode(label, List.of(), branchLength);
    }

    /** An internal node (optional {@code label}, may be null) over at least one child. */
    public static TreeNode internal(List<TreeNode> children, String label, double branchLength) {
        if (children.isEmpty()) {
            throw new IllegalArgumentException("an internal node needs children");
        }
        return new TreeNode(label, Collections.unmodifiableList(new ArrayList<>(children)), branchLength);
    }

    /** An unlabelled internal node over {@code children}, with unknown branch length. */
    public static TreeNode internal(TreeNode... children) {
        return internal(List.of(children), null, Double.NaN);
    }

    /** The label (always set for leaves; null for unlabelled internal nodes). */
    public String label() {
        return label;
    }

    /** Length of the edge to the parent; NaN if unknown. */
    public double branchLength() {
        return branchLength;
    }

    /** Sets the length of the edge to the parent (tree builders learn it after creating the node). */
    void setBranchLength(double length) {
        this.branchLength = length;
    }

    /** The children, in order (empty for a leaf). */
    public List<TreeNode> children() {
        return children;
    }

    /** True for a leaf. */
    public boolean isLeaf() {
        return children.isEmpty();
    }

    /** All nodes below and including this one, children before parents. */
    public List<TreeNode> postOrder() {
        List<TreeNode> out = new ArrayList<>();
        Deque<TreeNode> stack = new ArrayDeque<>();
        stack.push(this);
        while (!stack.isEmpty()) {
            TreeNode node = stack.pop();
            out.add(node);
            for (TreeNode child : node.children) {
                stack.push(child);
            }
        }
        Collections.reverse(out); // reversed (parent, right..left) pre-order is a valid post-order
        return out;
    }

    /** The leaves below this node, left to right. */
    public List<TreeNode> leaves() {
        List<TreeNode> out = new ArrayList<>();
        for (TreeNode node : postOrder()) {
            if (node.isLeaf()) {
                out.add(node);
            }
        }
        return out;
    }

    /** Labels of the leaves below this node, left to right. */
    public List<String> leafLabels() {
        List<String> out = new ArrayList<>();
        for (TreeNode leaf : leaves()) {
            out.add(leaf.label);
        }
        return out;
    }

    /** The Newick text of this tree. */
    @Override
    public String toString() {
        return NewickWriter.toNewick(this);
    }
}
