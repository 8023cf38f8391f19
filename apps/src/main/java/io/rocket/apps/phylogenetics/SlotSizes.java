package io.rocket.apps.phylogenetics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
 * <p><b>Outliers.</b> Every buffer is sized for the largest proteome, and there are many of them (a staging buffer per
 * parser thread and per job in flight, on the host and on every device), so one proteome much larger than the rest
 * would make all of them huge: one valid 740 KB gzip file of a single 192 M-residue protein sized every staging buffer
 * at 384 MB, the run went out of direct memory and failed good proteomes with allocation messages. So the measured
 * sizes exclude outliers: a proteome is an outlier when its text is more than {@link #OUTLIER_FACTOR} times the
 * reference size and more than {@link #OUTLIER_MIN_TEXT} bytes. The reference is the 95th percentile (nearest rank)
 * of the measured sizes, and never more than the second largest: a percentile, not the largest size, so that a rare
 * few outliers cannot set it; the 95th, so that the largest ordinary proteomes of a collection with a long but
 * genuine tail still set it, and a proteome within 4 times of them is always included. The floor keeps every
 * proteome whose buffers are cheap whatever the ratio: 16 MiB of text (a human proteome is about 11 M residues) costs
 * some hundreds of MB over all the staging buffers. Buffers are then sized for the largest proteome that is not an
 * outlier; an outlier fails alone when it is parsed, with a {@link SlotTooSmallException} naming its size, the limit
 * and the {@code --max-residues} that includes it, and the command names the outliers before the run. With
 * {@code --max-residues} nothing is measured, so nothing is an outlier.
 *
 * @param k            string length K
 * @param convention   how the text is read (whether proteins are repeated)
 * @param fileBytes    largest input file, as stored (compressed or not)
 * @param residues     largest number of residues allowed for
 * @param inputBytes   largest parsed proteome
 * @param entries      largest vector, in entries
 * @param residuesGiven whether {@code residues} came from {@code --max-residues} rather than the files
 * @param entriesGiven  whether {@code entries} came from {@code --max-entries} rather than the bound
 * @param outliers      the measured proteomes far larger than the rest, left out of the sizes (see above); they fail
 *                      alone
 */
public record SlotSizes(int k, Convention convention, long fileBytes, long residues, long inputBytes, long entries,
                        boolean residuesGiven, boolean entriesGiven, List<Outlier> outliers) {

    /** A proteome is an outlier when its text is more than this many times the reference size... */
    public static final int OUTLIER_FACTOR = 4;
    /** ...and more than this many bytes of text (16 MiB): below it, sizing for it costs little. */
    public static final long OUTLIER_MIN_TEXT = 16L << 20;
    /** Percentile of the measured sizes that is the reference size (nearest rank). */
    static final double REFERENCE_PERCENTILE = 0.95;
    /**
     * The read buffers hold an outlier's file whole up to this size (or the staging buffer's, if larger), so that its
     * failure comes from the parser, naming {@code --max-residues}: a compressed outlier is small as stored.
     */
    static final long OUTLIER_READ_BYTES = 16L << 20;

    /**
     * A proteome left out of the sizes.
     *
     * @param file     its path
     * @param residues its uncompressed text size, which bounds its residues: the {@code --max-residues} that
     *                 includes it
     */
    public record Outlier(Path file, long residues) {
    }

    public SlotSizes {
        outliers = List.copyOf(outliers);
    }

    /** Sizes without outliers. */
    public SlotSizes(int k, Convention convention, long fileBytes, long residues, long inputBytes, long entries,
                     boolean residuesGiven, boolean entriesGiven) {
        this(k, convention, fileBytes, residues, inputBytes, entries, residuesGiven, entriesGiven, List.of());
    }

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
        int n = files.size();
        long[] stored = new long[n];
        long[] text = new long[n];
        for (int i = 0; i < n; i++) {
            try {
                stored[i] = Files.size(files.get(i));
                if (maxResidues == null) {
                    text[i] = TextSize.of(files.get(i));
                }
            } catch (IOException e) {
                // left to the run, which names the file and the problem
            }
        }
        long limit = maxResidues == null ? outlierLimit(text) : Long.MAX_VALUE;
        long maxText = 0;
        long maxStored = 0;
        long maxOutlierStored = 0;
        List<Outlier> outliers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (text[i] > limit) {
                outliers.add(new Outlier(files.get(i), text[i]));
                maxOutlierStored = Math.max(maxOutlierStored, stored[i]);
            } else {
                maxText = Math.max(maxText, text[i]);
                maxStored = Math.max(maxStored, stored[i]);
            }
        }
        long residues = maxResidues != null ? maxResidues : maxText;
        long inputBytes = maxResidues != null ? FastaParser.maxParsedBytesForResidues(residues, convention)
                : FastaParser.maxParsedBytes(maxText, convention);
        long counted = convention.repeatsProteins() ? 2 * residues : residues; // residues the builder sees
        long entries = maxEntries != null ? maxEntries : CompositionVector.maxEntries(k, counted);
        // An outlier's file is read whole when that is cheap, so that the parser reports it (see OUTLIER_READ_BYTES).
        long fileBytes = Math.max(maxStored,
                Math.min(maxOutlierStored, Math.max(OUTLIER_READ_BYTES, Math.min(inputBytes, Integer.MAX_VALUE - 8))));
        return new SlotSizes(k, convention, Math.max(1, fileBytes), residues, inputBytes, Math.max(1, entries),
                maxResidues != null, maxEntries != null, outliers);
    }

    /**
     * The largest text size that is not an outlier: {@link #OUTLIER_FACTOR} times the reference size (the 95th
     * percentile by nearest rank, at most the second largest size), and at least {@link #OUTLIER_MIN_TEXT}.
     */
    static long outlierLimit(long[] textSizes) {
        int n = textSizes.length;
        if (n < 2) {
            return Long.MAX_VALUE; // one proteome: nothing to compare it with
        }
        long[] sorted = textSizes.clone();
        Arrays.sort(sorted);
        int rank = Math.min((int) Math.ceil(REFERENCE_PERCENTILE * n), n - 1); // 1-based, at most the second largest
        long reference = sorted[rank - 1];
        long byRatio = reference > Long.MAX_VALUE / OUTLIER_FACTOR ? Long.MAX_VALUE : OUTLIER_FACTOR * reference;
        return Math.max(byRatio, OUTLIER_MIN_TEXT);
    }

    /** Whether some measured proteome was left out of the sizes (and will fail). */
    public boolean hasOutliers() {
        return !outliers.isEmpty();
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
