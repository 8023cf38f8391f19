package io.rocket.apps.phylogenetics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * Writes a distance matrix as a square PHYLIP matrix in the relaxed form read by PHYLIP's neighbor, MEGA, SplitsTree
 * and most other tools: the item count on the first line, then one line per item with its name, a blank and n
 * distances (square) or the i distances to the items before it (lower triangle, PHYLIP's {@code L} option, the
 * diagonal left out). Names keep their full length (the strict 10-character field would truncate file names); whitespace
 * inside a name becomes '_', since blanks end the name field.
 */
public final class PhylipWriter {

    private PhylipWriter() {
    }

    /** Appends the square matrix to {@code out} (a Writer, StringBuilder, ...). */
    public static void write(DistanceMatrix matrix, Appendable out) {
        write(matrix, out, false);
    }

    /**
     * Appends the matrix to {@code out} (a Writer, StringBuilder, ...), square or as its lower triangle.
     *
     * @param matrix the distances
     * @param out    where the text goes
     * @param lower  true for the lower triangle (row i holds the distances to items 0..i-1), false for square
     */
    public static void write(DistanceMatrix matrix, Appendable out, boolean lower) {
        int n = matrix.size();
        try {
            out.append(Integer.toString(n)).append('\n');
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < n; i++) {
                line.setLength(0);
                line.append(matrix.name(i).replaceAll("\\s", "_"));
                for (int j = 0, end = lower ? i : n; j < end; j++) {
                    line.append(' ').append(String.format(Locale.ROOT, "%.8f", matrix.get(i, j)));
                }
                out.append(line).append('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing the PHYLIP matrix failed", e);
        }
    }

    /** The matrix as PHYLIP text. */
    public static String toPhylip(DistanceMatrix matrix) {
        StringBuilder out = new StringBuilder();
        write(matrix, out);
        return out.toString();
    }
}
