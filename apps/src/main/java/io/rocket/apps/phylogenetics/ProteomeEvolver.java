package io.rocket.apps.phylogenetics;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * Evolves a root proteome down a tree with the 20-state equal-input (F81) model and Gamma rate variation across
 * sites, giving one proteome per leaf.
 *
 * <p>A proteome is its residue codes concatenated (protein boundaries are kept by the caller; there are no indels,
 * so sites keep their positions). Site i has a rate r_i ~ Gamma(α, 1/α) (mean 1), fixed over the tree. Along a
 * branch of length t substitutions/site, F81 keeps a residue with probability e^(−β·r_i·t) and otherwise replaces
 * it with a draw from the background frequencies π (possibly the same letter), where β = 1/(1 − Σπ²) makes t the
 * expected number of substitutions per site.
 */
public final class ProteomeEvolver {

    private final double beta = 1.0 / (1.0 - AminoAcidFrequencies.homozygosity());
    private final float[] siteRates;

    /** An evolver for {@code sites} sites with rate shape {@code alpha} (0.7 in apps.md). */
    public ProteomeEvolver(int sites, double alpha, RandomGenerator random) {
        siteRates = new float[sites];
        for (int i = 0; i < sites; i++) {
            siteRates[i] = (float) RandomVariates.gamma(random, alpha, 1.0 / alpha);
        }
    }

    /** A root proteome: {@code sites} residues drawn from the background frequencies. */
    public static byte[] randomRoot(int sites, RandomGenerator random) {
        byte[] residues = new byte[sites];
        for (int i = 0; i < sites; i++) {
            residues[i] = AminoAcidFrequencies.sample(random);
        }
        return residues;
    }

    /** The sequence at the end of a branch of length {@code length} starting from {@code parent}. */
    public byte[] evolve(byte[] parent, double length, RandomGenerator random) {
        byte[] child = parent.clone();
        if (!(length > 0)) {
            return child;
        }
        double scaled = beta * length;
        for (int i = 0; i < child.length; i++) {
            double keep = Math.exp(-scaled * siteRates[i]);
            if (random.nextDouble() >= keep) {
                child[i] = AminoAcidFrequencies.sample(random);
            }
        }
        return child;
    }

    /** Leaf label → evolved proteome for every leaf of {@code tree}, in depth-first order. */
    public Map<String, byte[]> evolveTree(TreeNode tree, byte[] root, RandomGenerator random) {
        Map<String, byte[]> leaves = new LinkedHashMap<>();
        Deque<TreeNode> nodes = new ArrayDeque<>();
        Deque<byte[]> sequences = new ArrayDeque<>();
        nodes.push(tree);
        sequences.push(root);
        while (!nodes.isEmpty()) {
            TreeNode node = nodes.pop();
            byte[] sequence = sequences.pop();
            if (node.isLeaf()) {
                leaves.put(node.label(), sequence);
                continue;
            }
            for (int c = node.children().size() - 1; c >= 0; c--) {
                TreeNode child = node.children().get(c);
                nodes.push(child);
                sequences.push(evolve(sequence, child.branchLength(), random));
            }
        }
        return leaves;
    }
}
