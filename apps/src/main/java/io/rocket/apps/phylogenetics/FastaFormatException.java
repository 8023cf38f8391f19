package io.rocket.apps.phylogenetics;

/**
 * Thrown when an input file is not a usable protein FASTA file (empty, binary, corrupt gzip, no residues).
 *
 * <p>The message always starts with the item's name so that the runtime can report the failed item as it is,
 * e.g. {@code "E_coli.faa.gz: corrupt gzip data (invalid stored block lengths)"}.
 */
public class FastaFormatException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String source;

    /** A format problem in {@code source} (a file name or other item name), described by {@code problem}. */
    public FastaFormatException(String source, String problem) {
        super(source + ": " + problem);
        this.source = source;
    }

    /** As {@link #FastaFormatException(String, String)}, keeping the underlying cause. */
    public FastaFormatException(String source, String problem, Throwable cause) {
        super(source + ": " + problem, cause);
        this.source = source;
    }

    /** The item that failed. */
    public String source() {
        return source;
    }
}
