package io.rocket.apps.phylogenetics;

import java.util.Locale;

/**
 * How FASTA text becomes residues ({@code --convention}); the composition vector and the distance are the same under
 * both.
 *
 * <ul>
 *   <li>{@link #CVTREE} (the default): CVTree's reading (CVTree 5, Hao method), so that distances equal CVTree's.
 *   Sequence lines are trimmed of blanks, tabs and CR at both ends, and every other character counts: the 20 amino
 *   acids, B as D, U as C, X as G, Z as E, lower case as upper case, and anything else (J, O, '*', '-', digits, a
 *   blank inside a line) as A, except one '*' or '-' ending a protein, which is dropped.</li>
 *   <li>{@link #ROCKET}: only letters count (with the same folds); blanks, digits, '*', '-' and other punctuation are
 *   skipped wherever they are, as in Rocket before it matched CVTree.</li>
 * </ul>
 */
public enum Convention {
    CVTREE,
    ROCKET;

    /** The option value: {@code cvtree} or {@code rocket}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Reads an option value, in any case. */
    public static Convention parse(String value) {
        for (Convention c : values()) {
            if (c.id().equalsIgnoreCase(value.strip())) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown convention '" + value + "' (expected cvtree or rocket)");
    }

    @Override
    public String toString() {
        return id();
    }
}
