package io.rocket.apps.phylogenetics;

/**
 * Thrown when Newick text cannot be parsed; the message names the character position and what was expected.
 */
public class NewickFormatException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** A problem at character {@code position} of the text. */
    public NewickFormatException(int position, String problem) {
        super("Newick, at character " + position + ": " + problem);
    }
}
