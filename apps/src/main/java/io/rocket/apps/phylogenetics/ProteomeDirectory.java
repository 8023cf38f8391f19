package io.rocket.apps.phylogenetics;

import io.rocket.files.InputDirectory;
import io.rocket.cli.InputsMixin;
import io.rocket.core.RocketException;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The input of a phylogenetics run: the proteome files of one directory, one taxon per file. A proteome file ends in
 * {@code .faa}, {@code .fasta} or {@code .fa}, optionally followed by {@code .gz} (any case); other files (a README,
 * a true-tree file) and subdirectories are listed as ignored so that the command can say so. Proteomes are sorted by
 * file name, which fixes the item indices of the pair TSV and the row order of the matrix. Two files that would give
 * the same leaf label ({@code a.faa} and {@code a.fa.gz}) are an error: the tree could not tell them apart.
 */
public final class ProteomeDirectory {

    private static final Set<String> EXTENSIONS = Set.of(".faa", ".fasta", ".fa");

    /**
     * @param proteomes the proteome files, sorted by file name
     * @param ignored   names of the other entries, sorted
     */
    public record Listing(List<Path> proteomes, List<String> ignored) {
    }

    private ProteomeDirectory() {
    }

    /** Whether a file name is a proteome file name. */
    public static boolean isProteome(String fileName) {
        String name = fileName.toLowerCase(Locale.ROOT);
        if (name.endsWith(".gz")) {
            name = name.substring(0, name.length() - 3);
        }
        int dot = name.lastIndexOf('.');
        return dot > 0 && EXTENSIONS.contains(name.substring(dot));
    }

    /**
     * Lists the proteomes of {@code dir}.
     *
     * @throws RocketException when the directory cannot be read, holds no proteome, or two files share a label
     */
    public static Listing scan(Path dir) {
        return scan(new InputsMixin.Source(dir, null, InputDirectory.display(dir)));
    }

    /**
     * Lists the proteomes of a command's input source (a directory or an input list).
     *
     * @throws RocketException when the directory cannot be read, holds no proteome, or two files share a label
     */
    public static Listing scan(InputsMixin.Source source) {
        InputDirectory.Listing found = InputDirectory.scan(source, "proteome", ProteomeDirectory::isProteome,
                Set.of());
        if (found.items().isEmpty()) {
            throw new RocketException(source.name() + ": no proteome files (*.faa, *.fasta, *.fa, optionally .gz)");
        }
        checkDistinctLabels(found.items());
        return new Listing(found.items(), found.ignored());
    }

    private static void checkDistinctLabels(List<Path> proteomes) {
        Map<String, Path> seen = new HashMap<>();
        for (Path file : proteomes) {
            Path other = seen.putIfAbsent(TaxonLabels.fromPath(file), file);
            if (other != null) {
                throw new RocketException("two files give the taxon name '" + TaxonLabels.fromPath(file) + "': "
                        + other.getFileName() + " and " + file.getFileName() + " (leave one out)");
            }
        }
    }
}
