package io.rocket.apps.phylogenetics;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How FASTA text becomes the residue strings whose k-strings are counted ({@code --convention}); the composition
 * vector and the distance computed from those counts are the same under all of them.
 *
 * <ul>
 *   <li>{@link #CVTREE} (the default): CVTree's reading of the text with the published method's counting (Qi, Wang
 *   and Hao 2004: each protein once). Sequence lines are trimmed of blanks, tabs and CR at both ends, and every other
 *   character counts: the 20 amino acids, B as D, U as C, X as G, Z as E, lower case as upper case, and anything else
 *   (J, O, '*', '-', digits, a blank inside a line) as A, except one '*' or '-' ending a protein, which is
 *   dropped.</li>
 *   <li>{@link #CVTREE5}: the same reading, and each protein then counted as itself followed by itself (s + s), as
 *   CVTree 5's released code does: its {@code readFasta} encodes every protein once and {@code encodeGenome}
 *   appends it a second time. The counts then include the K − 1 strings that cross the seam, and
 *   n_k = Σ (2·L − k + 1). This reproduces CVTree 5's distances.</li>
 *   <li>{@link #ROCKET}: only letters count (with the same folds); blanks, digits, '*', '-' and other punctuation are
 *   skipped wherever they are, as in Rocket before it matched CVTree; each protein once.</li>
 * </ul>
 */
public enum Convention {
    CVTREE,
    CVTREE5,
    ROCKET;

    /** The option value: {@code cvtree}, {@code cvtree5} or {@code rocket}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Whether a character other than a letter counts as A (CVTree's reading) rather than being skipped; one '*' or
     * '-' ending a protein is dropped either way.
     */
    public boolean countsOtherCharactersAsA() {
        return this != ROCKET;
    }

    /**
     * Whether each protein is counted as itself followed by itself (CVTree 5's released code), so that k-strings
     * crossing the seam count too; the parser then writes every protein's residues twice.
     */
    public boolean repeatsProteins() {
        return this == CVTREE5;
    }

    /** Reads an option value, in any case. */
    public static Convention parse(String value) {
        for (Convention c : values()) {
            if (c.id().equalsIgnoreCase(value.strip())) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown convention '" + value + "' (expected "
                + Arrays.stream(values()).map(Convention::id).collect(Collectors.joining(", ")) + ")");
    }

    @Override
    public String toString() {
        return id();
    }
}
