package io.rocket.apps.phylogenetics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The buffer sizes of a phylogenetics run, fixed before it starts because Rocket allocates every slot once: the
 * largest file (the read buffer), the largest parsed proteome (the staging buffer) and the largest composition
 * vector (one cache slot at every level).
 *
 * <p>By default they are measured: the largest uncompressed text ({@link TextSize}) bounds the residues of every
 * proteome, hence its parsed size ({@link FastaParser#maxParsedBytes}) and its vector
 * ({@link CompositionVector#maxEntries}: 20·min(20^(K−1), residues) entries). At K = 5 that bound is at most 3.2 M
 * entries (25.6 MB), about what a bacterial proteome fills; at K = 6 and 7 it grows with the proteome and is loose,
 * so {@code --max-entries} can set the slot smaller. {@code --max-residues} replaces the measurement (a proteome of R
 * residues parses to at most 8 + 2R bytes, each protein adding one separator). A proteome or vector that does not
 * fit fails alone with a {@link SlotTooSmallException} naming the option to raise.
 *
 * <p>With {@link Convention#CVTREE5} every protein is parsed twice in a row, so the parsed bound is 8 + 3R bytes
 * (8 + 2·text + 1 measured) and the vector bound is taken for 2R residues; {@code residues} stays the count as the
 * text reads it, each protein once, which is what {@code --max-residues} means.
 *
 * @param k            string length K
 * @param convention   how the text is read (whether proteins are repeated)
 * @param fileBytes    largest input file, as stored (compressed or not)
 * @param residues     largest number of residues allowed for
 * @param inputBytes   largest parsed proteome
 * @param entries      largest vector, in entries
 * @param residuesGiven whether {@code residues} came from {@code --max-residues} rather than the files
 * @param entriesGiven  whether {@code entries} came from {@code --max-entries} rather than the bound
 */
public record SlotSizes(int k, Convention convention, long fileBytes, long residues, long inputBytes, long entries,
                        boolean residuesGiven, boolean entriesGiven) {

    /**
     * Sizes for {@code files} read with {@link Convention#CVTREE}; see
     * {@link #measure(List, int, Convention, Long, Long)}.
     */
    public static SlotSizes measure(List<Path> files, int k, Long maxResidues, Long maxEntries) {
        return measure(files, k, Convention.CVTREE, maxResidues, maxEntries);
    }

    /**
     * Sizes for {@code files} read with {@code convention}; null overrides mean "measure". Files that cannot be read
     * count as empty here: the run reports them when it reads them.
     */
    public static SlotSizes measure(List<Path> files, int k, Convention convention, Long maxResidues,
                                    Long maxEntries) {
        CompositionVector.checkK(k);
        long fileBytes = 0;
        long text = 0;
        for (Path file : files) {
            try {
                fileBytes = Math.max(fileBytes, Files.size(file));
                if (maxResidues == null) {
                    text = Math.max(text, TextSize.of(file));
                }
            } catch (IOException e) {
                // left to the run, which names the file and the problem
            }
        }
        long residues = maxResidues != null ? maxResidues : text;
        long inputBytes = maxResidues != null ? FastaParser.maxParsedBytesForResidues(residues, convention)
                : FastaParser.maxParsedBytes(text, convention);
        long counted = convention.repeatsProteins() ? 2 * residues : residues; // residues the builder sees
        long entries = maxEntries != null ? maxEntries : CompositionVector.maxEntries(k, counted);
        return new SlotSizes(k, convention, Math.max(1, fileBytes), residues, inputBytes, Math.max(1, entries),
                maxResidues != null, maxEntries != null);
    }

    /** Bytes of one cache slot (one composition vector). */
    public long itemBytes() {
        return CompositionVector.bytesFor(entries);
    }

    /**
     * A {@code --max-residues} that fits a parsed proteome of {@code parsedBytes}, at least its residue count (so the
     * vector bound derived from it holds too).
     */
    long residuesFor(long parsedBytes) {
        return FastaParser.residuesForParsedBytes(parsedBytes, convention);
    }

    /** The number of entries of a vector of {@code vectorBytes}. */
    static long entriesFor(long vectorBytes) {
        return (vectorBytes - CompositionVector.HEADER_BYTES) / 8;
    }
}
