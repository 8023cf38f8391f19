package io.rocket.cli;

import io.rocket.core.UsageException;
import io.rocket.core.RocketException;

import java.nio.file.Path;
import java.util.Locale;

/**
 * The format of a pair output, chosen by its file name: {@code .tsv} (and {@code .txt}, or no suffix) for TSV,
 * {@code .tsv.gz} (and {@code .txt.gz}) for gzip-compressed TSV, {@code .npy} for a NumPy array. Anything else is
 * refused in one line, so a typo never writes a file in a format the name does not say.
 */
public enum OutputFormat {
    /** Tab-separated text, one line per pair. */
    TSV,
    /** The same text, gzip-compressed. */
    TSV_GZ,
    /** A NumPy array: dense numbers in the matrix's order, or sparse {@code (i, j, score)} records. */
    NPY;

    /**
     * The format the file's name asks for.
     *
     * @param option the option that named the file, for the message, e.g. {@code --output}
     * @param file   the file; its name decides (in any case)
     * @return the format
     * @throws RocketException with one line naming the file and the suffixes taken, for any other suffix
     */
    public static OutputFormat of(String option, Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".npy")) {
            return NPY;
        }
        if (name.endsWith(".tsv.gz") || name.endsWith(".txt.gz")) {
            return TSV_GZ;
        }
        int dot = name.lastIndexOf('.');
        // Devices (/dev/stdout) and names without a suffix have always been TSV.
        if (name.endsWith(".tsv") || name.endsWith(".txt") || dot <= 0 || file.startsWith("/dev")) {
            return TSV;
        }
        throw new UsageException(option + " " + file + ": unknown format '" + name.substring(dot)
                + "'; name the file .tsv, .tsv.gz or .npy");
    }
}
