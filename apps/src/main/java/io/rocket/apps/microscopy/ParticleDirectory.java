package io.rocket.apps.microscopy;

import io.rocket.files.InputDirectory;
import io.rocket.cli.InputsMixin;
import io.rocket.core.RocketException;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The input of a microscopy run: the particle files of one directory ({@code *.json} or {@code *.csv}, any case),
 * sorted by file name, which fixes the item indices of the pair TSV. Other entries are listed as ignored, except
 * the generator's {@code truth.tsv} and {@code template.tsv}, which are expected beside the particles.
 */
public final class ParticleDirectory {
    /** Files the generator writes beside the particles; not worth a note. */
    static final Set<String> KNOWN = Set.of("truth.tsv", "template.tsv");

    /**
     * @param particles    the particle files, sorted by file name
     * @param ignored      names of the other entries (not the known ones), sorted
     * @param largestBytes the size of the largest particle file, for the I/O buffers
     */
    public record Listing(List<Path> particles, List<String> ignored, long largestBytes) {
    }

    private ParticleDirectory() {
    }

    /** Whether a file name is a particle file name. */
    public static boolean isParticle(String fileName) {
        String name = fileName.toLowerCase(Locale.ROOT);
        return name.endsWith(".json") || name.endsWith(".csv");
    }

    /**
     * Lists the particles of {@code dir}.
     *
     * @throws RocketException when the directory cannot be read or holds fewer than two particles
     */
    public static Listing scan(Path dir) {
        return scan(new InputsMixin.Source(dir, null, InputDirectory.display(dir)), 2);
    }

    /**
     * Lists the particles of a command's input source (a directory or an input list).
     *
     * @param least the fewest particles the run can use: 2 to register them with each other, 1 for queries against
     *              references ({@code --against}) or for the references
     * @throws RocketException when the directory cannot be read or there are fewer than {@code least} particles
     */
    public static Listing scan(InputsMixin.Source source, int least) {
        InputDirectory.Listing found = InputDirectory.scan(source, "particle", ParticleDirectory::isParticle, KNOWN);
        if (found.items().size() < least) {
            throw new RocketException(source.name() + ": " + found.items().size() + " particle files (*.json, "
                    + "*.csv); need at least " + least + (least > 1 ? " (or 1 against references, --against)" : ""));
        }
        return new Listing(found.items(), found.ignored(), found.largestBytes());
    }
}
