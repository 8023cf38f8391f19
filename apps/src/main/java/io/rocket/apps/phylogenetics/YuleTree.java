package io.rocket.apps.phylogenetics;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Random ultrametric trees from the Yule (pure-birth) process, scaled to a given root-to-tip depth.
 *
 * <p>The process starts with the root split into two lineages; while there are k &lt; T lineages it waits an
 * Exp(k) time and splits a uniformly chosen lineage. After the T-th lineage appears it waits one more Exp(T) time
 * (the time to the next split, which does not happen), so the youngest cherry does not have zero-length branches.
 * All tips end at that time, and every length is then scaled so the root-to-tip depth is exactly {@code depth}.
 * Leaves are named {@code taxon01 … taxonT} (zero-padded to the width of T) in random order.
 */
public final class YuleTree {

    private YuleTree() {
    }

    /** A random Yule tree of {@code taxa} ≥ 2 leaves with root-to-tip depth {@code depth}. */
    public static TreeNode generate(int taxa, double depth, RandomGenerator random) {
        if (taxa < 2) {
            throw new IllegalArgumentException("a Yule tree needs at least 2 taxa, got " + taxa);
        }
        if (!(depth > 0)) {
            throw new IllegalArgumentException("depth must be positive, got " + depth);
        }
        // Node n has parent[n] and time[n] (the split time, or the end time for tips); node 0 is the root.
        List<Integer> parent = new ArrayList<>(List.of(-1, 0, 0));
        List<Double> time = new ArrayList<>(List.of(0.0, 0.0, 0.0));
        List<Integer> active = new ArrayList<>(List.of(1, 2));
        double now = 0;
        while (active.size() < taxa) {
            now += RandomVariates.exponential(random, active.size());
            int pick = random.nextInt(active.size());
            int node = active.get(pick);
            time.set(node, now);
            int left = parent.size();
            parent.add(node);
            time.add(0.0);
            parent.add(node);
            time.add(0.0);
            active.set(pick, left);
            active.add(left + 1);
        }
        now += RandomVariates.exponential(random, taxa);
        for (int tip : active) {
            time.set(tip, now);
        }
        double scale = depth / now;
        return build(parent, time, active, scale);
    }

    private static TreeNode build(List<Integer> parent, List<Double> time, List<Integer> tips, double scale) {
        int nodes = parent.size();
        List<List<Integer>> children = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            children.add(new ArrayList<>());
        }
        for (int i = 1; i < nodes; i++) {
            children.get(parent.get(i)).add(i);
        }
        String[] labels = new String[nodes];
        int width = Integer.toString(tips.size()).length();
        for (int i = 0; i < tips.size(); i++) {
            labels[tips.get(i)] = String.format("taxon%0" + Math.max(2, width) + "d", i + 1);
        }
        // Children always have larger ids than their parent, so building from the last id down is bottom-up.
        TreeNode[] built = new TreeNode[nodes];
        for (int i = nodes - 1; i >= 0; i--) {
            double length = i == 0 ? Double.NaN : (time.get(i) - time.get(parent.get(i))) * scale;
            if (children.get(i).isEmpty()) {
                built[i] = TreeNode.leaf(labels[i], length);
            } else {
                List<TreeNode> kids = new ArrayList<>();
                for (int child : children.get(i)) {
                    kids.add(built[child]);
                }
                built[i] = TreeNode.internal(kids, null, length);
            }
        }
        return built[0];
    }
}
