package io.rocket.apps.phylogenetics;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/**
 * Leaf labels from input file names: the name without its compression suffix ({@code .gz}, {@code .gzip}) and
 * without a FASTA extension ({@code .faa .fasta .fa .fas .fsa .aa .pep .txt}). Only these known extensions are
 * removed, so that dotted accessions keep their version: {@code GCF_000005845.2.faa.gz} → {@code GCF_000005845.2}.
 */
public final class TaxonLabels {

    private static final Set<String> COMPRESSION = Set.of("gz", "gzip");
    private static final Set<String> FASTA = Set.of("faa", "fasta", "fa", "fas", "fsa", "aa", "pep", "txt");

    private TaxonLabels() {
    }

    /** The label for a file. */
    public static String fromPath(Path file) {
        Path name = file.getFileName();
        return fromFileName(name == null ? file.toString() : name.toString());
    }

    /** The label for a file name (no directories). */
    public static String fromFileName(String fileName) {
        String label = strip(fileName, COMPRESSION);
        label = strip(label, FASTA);
        return label.isEmpty() ? fileName : label;
    }

    private static String strip(String name, Set<String> extensions) {
        int dot = name.lastIndexOf('.');
        if (dot > 0 && extensions.contains(name.substring(dot + 1).toLowerCase(Locale.ROOT))) {
            return name.substring(0, dot);
        }
        return name;
    }
}
