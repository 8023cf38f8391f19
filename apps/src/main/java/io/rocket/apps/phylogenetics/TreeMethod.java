package io.rocket.apps.phylogenetics;

import java.util.Locale;

/**
 * How the tree is built from the distance matrix: neighbour joining (CVTree's choice, an unrooted tree) or UPGMA
 * (a rooted, ultrametric tree). Command-line names are {@code nj} and {@code upgma}.
 */
public enum TreeMethod {
    /** Neighbour joining ({@link NeighborJoining}). */
    NJ("neighbour joining"),
    /** Average linkage ({@link Upgma}). */
    UPGMA("UPGMA");

    private final String description;

    TreeMethod(String description) {
        this.description = description;
    }

    /** The method's name for reports. */
    public String description() {
        return description;
    }

    /** The command-line name. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The tree of {@code matrix}, leaves labelled with its names. */
    public TreeNode build(DistanceMatrix matrix) {
        return this == NJ ? NeighborJoining.build(matrix) : Upgma.build(matrix);
    }

    /** The method called {@code id} on the command line (any case). */
    public static TreeMethod parse(String id) {
        for (TreeMethod method : values()) {
            if (method.id().equalsIgnoreCase(id.trim())) {
                return method;
            }
        }
        throw new IllegalArgumentException("unknown tree method '" + id + "' (expected nj or upgma)");
    }
}
