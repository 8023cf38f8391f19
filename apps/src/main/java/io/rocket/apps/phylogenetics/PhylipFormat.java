package io.rocket.apps.phylogenetics;

import java.util.Locale;

/** The layout of a PHYLIP distance matrix file. */
public enum PhylipFormat {
    /** Every distance: n rows of n. */
    SQUARE,
    /** The lower triangle without the diagonal (PHYLIP's L option): row i holds the distances to rows 0..i-1. */
    LOWER;

    /**
     * Reads {@code square} or {@code lower}, in any case.
     *
     * @param text the command line's value
     * @return the format
     * @throws IllegalArgumentException with a one-line message for any other text
     */
    public static PhylipFormat parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "square" -> SQUARE;
            case "lower" -> LOWER;
            default -> throw new IllegalArgumentException("expected square or lower, got '" + text + "'");
        };
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
