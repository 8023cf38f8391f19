package io.rocket.apps.phylogenetics;

import io.rocket.cli.OutputFile;
import io.rocket.cli.InputsMixin;
import io.rocket.cli.JobRunner;
import io.rocket.cli.OutputFormatMixin;
import io.rocket.cli.PairSpaceMixin;
import io.rocket.cli.ResultNeutral;
import io.rocket.cli.ReductionOptions;
import io.rocket.cli.RuntimeOptionsMixin;
import io.rocket.core.DeviceKind;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.core.UsageException;
import io.rocket.core.summary.RunSummary;
import io.rocket.apps.query.BestReferences;
import io.rocket.apps.query.MatchTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code rocket phylogenetics DIR}: the CVTree distances between every pair of proteomes in a directory, streamed as
 * a pair TSV, and on request the PHYLIP distance matrix and the Newick tree (neighbour joining or UPGMA).
 */
@Command(name = "phylogenetics", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Alignment-free phylogeny from composition vectors (CVTree, Qi, Wang and Hao 2004): one taxon "
                + "per proteome file in DIR (*.faa, *.fasta, *.fa, optionally .gz). Each pair's distance is "
                + "D = (1 - C)/2, C the cosine of the two K-string composition vectors with the Markov background "
                + "removed."})
public final class PhylogeneticsCommand implements Callable<Integer> {

    private static final int MAX_IGNORED_NAMES = 5;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "Directory of proteome files, one "
            + "taxon each (a local path, file:, sftp:// or s3:// URI); other files are ignored.")
    String dir;

    @Mixin
    InputsMixin inputs;

    private String source;

    @Option(names = {"-k", "--k"}, paramLabel = "K", defaultValue = "5",
            description = "String length K of the composition vectors, 3..7. Default: ${DEFAULT-VALUE}.")
    int k;

    @OutputFile
    @Option(names = "--matrix", paramLabel = "FILE", description = "Write the distance matrix (PHYLIP, see "
            + "--phylip-format).")
    Path matrix;

    @ResultNeutral // how the matrix is written, not what a pair computes
    @Option(names = "--phylip-format", paramLabel = "F", defaultValue = "square",
            converter = PhylipFormatConverter.class, description = "Layout of the --matrix file: square (every "
                    + "distance) or lower (the lower triangle, PHYLIP's L option: row i holds the distances to the "
                    + "taxa before it). Default: ${DEFAULT-VALUE}.")
    PhylipFormat phylipFormat;

    @OutputFile
    @Option(names = "--tree", paramLabel = "FILE", description = "Write the tree (Newick; leaves are file names "
            + "without extensions).")
    Path tree;

    @OutputFile
    @Option(names = "--nearest", paramLabel = "FILE", description = "With --against: write the nearest references "
            + "of each query proteome, nearest first (TSV: query, rank, reference, distance): the --top-k K nearest, "
            + "or the nearest one without --top-k.")
    Path nearest;

    @ResultNeutral
    @Option(names = "--method", paramLabel = "M", defaultValue = "nj", converter = MethodConverter.class,
            description = "Tree method: nj (neighbour joining, unrooted) or upgma (rooted). Default: ${DEFAULT-VALUE}.")
    TreeMethod method;

    @Option(names = "--convention", paramLabel = "C", defaultValue = "cvtree", converter = ConventionConverter.class,
            description = "How sequence text is read and counted: cvtree (the published method with CVTree's "
                    + "reading: every character that is not one of the 20 amino acids or B, U, X, Z counts as A, "
                    + "except one '*' or '-' ending a protein; each protein counted once), cvtree5 (as cvtree, but "
                    + "each protein counted as itself followed by itself, as CVTree 5's released code does: gives "
                    + "CVTree 5's distances) or rocket (only letters count; '*', '-', digits and blanks are skipped). "
                    + "Default: ${DEFAULT-VALUE}.")
    Convention convention;

    @ResultNeutral // sizes buffers: a proteome that does not fit fails alone, and a store computes it again
    @Option(names = "--max-residues", paramLabel = "R", description = "Size the buffers for proteomes of at most R "
            + "residues instead of measuring the files before the run.")
    Long maxResidues;

    @ResultNeutral // sizes the cache slots, as --max-residues the buffers
    @Option(names = "--max-entries", paramLabel = "E", description = "Size the cache slots for vectors of at most E "
            + "entries (8 bytes each) instead of the bound 20*min(20^(K-1), residues); useful at K = 6 or 7.")
    Long maxEntries;

    /** {@code --against REFS}: query proteomes against references; {@code --pairs FILE}: listed pairs. */
    @Mixin
    PairSpaceMixin spaces;

    @Mixin
    RuntimeOptionsMixin runtime;

    @Mixin
    OutputFormatMixin outputFormat;

    /** {@code --top-k}: the nearest proteomes of each; {@code --max-score}: the pairs within a distance. */
    @Mixin
    ReductionOptions reduction;

    @Override
    public Integer call() throws Exception {
        checkOptions();
        if (reduction.reduction() != null && (matrix != null || tree != null)) {
            throw new UsageException("--matrix and --tree need every distance: leave out --top-k, --min-score and "
                    + "--max-score, or write the kept pairs with --output alone");
        }
        if (nearest != null && !spaces.hasReferences()) {
            throw new UsageException("--nearest names the nearest references of each query: give the references "
                    + "with --against");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        InputsMixin.Source from = inputs.source(dir, "proteomes");
        source = from.name();
        ProteomeDirectory.Listing listing = ProteomeDirectory.scan(from);
        noteIgnored(listing.ignored(), err);
        InputsMixin.Source refSource = spaces.referenceSource();
        ProteomeDirectory.Listing refs = refSource == null ? null : ProteomeDirectory.scan(refSource);
        PairSpaceMixin.Items<Path> run = spaces.resolve(listing.proteomes(),
                refs == null ? null : refs.proteomes(), TaxonLabels::fromPath);
        boolean wantTree = matrix != null || tree != null;
        if (wantTree && !run.space().isEverything()) {
            throw new UsageException("--matrix and --tree need every distance between the proteomes: leave out "
                    + "--against and --pairs (with --against, --nearest places each query among the references)");
        }
        SlotSizes sizes = SlotSizes.measure(run.items(), k, convention, maxResidues, maxEntries);
        checkSizes(sizes);
        reportSizes(sizes, run.describe("proteome", source, refSource == null ? null : refSource.name()), out, err);

        PhylogeneticsApp app = new PhylogeneticsApp(sizes);
        List<String> labels = run.items().stream().map(TaxonLabels::fromPath).toList();
        DistanceCollector collector = wantTree ? new DistanceCollector(labels) : null;
        var kept = reduction.reduction();
        BestReferences<Path, Double> best = nearest == null ? null : new BestReferences<>(run.block(),
                kept == null || kept.topK() <= 0 ? 1 : kept.topK(), Double::doubleValue, true);
        List<ResultSink<Path, Double>> sinks = new ArrayList<>();
        if (collector != null) {
            sinks.add(collector);
        }
        if (best != null) {
            sinks.add(best);
        }
        RunSummary summary = JobRunner.run(app, run.items(), run.space(), runtime,
                run.outputs(outputFormat.settings(), true), reduction, d -> Double.toString(d), "distance", out,
                sinks);
        if (collector != null && runtime.writesOutputs()) {
            Set<Integer> failed = new HashSet<>();
            summary.failures.forEach(f -> failed.add(f.item()));
            new TreeOutputs(matrix, tree, method, phylipFormat == PhylipFormat.LOWER).write(collector.complete(failed), summary, labels, out, err);
        }
        if (best != null && runtime.writesOutputs()) {
            int placed = MatchTable.write(nearest, best, labels, "distance", null, null);
            out.printf(Locale.ROOT, "nearest: %d of %d queries placed among %d references -> %s%n", placed,
                    run.block().queries(), run.block().references(), nearest);
            out.flush();
        }
        return JobRunner.exitCode(summary);
    }

    private void checkOptions() {
        if (k < CompositionVector.MIN_K || k > CompositionVector.MAX_K) {
            throw new UsageException("--k must be between " + CompositionVector.MIN_K + " and "
                    + CompositionVector.MAX_K + ", got " + k);
        }
        if (maxResidues != null && maxResidues < 1) {
            throw new UsageException("--max-residues must be at least 1, got " + maxResidues);
        }
        if (maxEntries != null && maxEntries < 1) {
            throw new UsageException("--max-entries must be at least 1, got " + maxEntries);
        }
        DeviceKind kind = runtime.toRocketOptions().device().kind();
        if (kind == DeviceKind.SIM) {
            throw new UsageException("phylogenetics runs on --device cpu or cuda (sim models time and computes "
                    + "nothing)");
        }
    }

    private static void checkSizes(SlotSizes sizes) {
        long limit = Integer.MAX_VALUE - 8;
        if (sizes.inputBytes() > limit) {
            throw new RocketException("proteomes of " + sizes.residues() + " residues need " + sizes.inputBytes()
                    + " bytes each once parsed, more than the 2 GiB limit of one buffer (--max-residues)");
        }
        if (sizes.itemBytes() > limit) {
            throw new RocketException("vectors of up to " + sizes.entries() + " entries need " + sizes.itemBytes()
                    + " bytes, more than the 2 GiB limit of one slot; set a smaller --max-entries");
        }
    }

    private void reportSizes(SlotSizes sizes, String proteomes, PrintWriter out, PrintWriter err) {
        out.printf(Locale.ROOT, "phylogenetics: %s, K = %d; buffers for up to %d residues "
                        + "(parsed %s, vector slot %s = %d entries)%n", proteomes, k, sizes.residues(),
                megabytes(sizes.inputBytes()), megabytes(sizes.itemBytes()), sizes.entries());
        out.flush();
        noteOutliers(sizes, err);
        if (k >= 6 && maxEntries == null) {
            // At K >= 6 the bound is several times what proteomes fill, and fewer slots mean more reloads.
            err.printf(Locale.ROOT, "phylogenetics: note: at K = %d the vector slot (%s) is a worst-case bound "
                    + "that real proteomes fill only partly; --max-entries lets the caches hold more vectors "
                    + "(a vector that does not fit fails alone, naming the size it needs)%n", k,
                    megabytes(sizes.itemBytes()));
            err.flush();
        }
    }

    /**
     * Names the proteomes left out of the sizes ({@link SlotSizes}: far larger than the rest), before the run: each
     * will fail alone, and the note says which {@code --max-residues} includes them.
     */
    static void noteOutliers(SlotSizes sizes, PrintWriter err) {
        List<SlotSizes.Outlier> outliers = sizes.outliers();
        if (outliers.isEmpty()) {
            return;
        }
        long largest = outliers.stream().mapToLong(SlotSizes.Outlier::residues).max().orElse(0);
        List<String> shown = outliers.stream().limit(MAX_IGNORED_NAMES)
                .map(o -> String.format(Locale.ROOT, "%s (%,d residues)",
                        io.rocket.files.FileItemApplication.fileName(o.file()), o.residues()))
                .toList();
        boolean one = outliers.size() == 1;
        err.printf(Locale.ROOT, "phylogenetics: note: %s%s %s far larger than the others; buffers are sized for %,d "
                        + "residues, so %s will fail; give --max-residues %d to include %s%n",
                String.join(", ", shown), outliers.size() > shown.size()
                        ? " and " + (outliers.size() - shown.size()) + " more" : "",
                one ? "is" : "are", sizes.residues(), one ? "it" : "they", largest, one ? "it" : "them");
        err.flush();
    }

    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, bytes < 100_000 ? "%.3f MB" : "%.1f MB", bytes / 1e6);
    }

    private static void noteIgnored(List<String> ignored, PrintWriter err) {
        if (ignored.isEmpty()) {
            return;
        }
        List<String> shown = ignored.subList(0, Math.min(MAX_IGNORED_NAMES, ignored.size()));
        err.println("phylogenetics: note: ignoring " + (ignored.size() == 1 ? "1 entry that is not a proteome file: "
                : ignored.size() + " entries that are not proteome files: ") + String.join(", ", shown)
                + (ignored.size() > shown.size() ? ", ..." : ""));
        err.flush();
    }

    /** Reads {@code --convention} values. */
    static final class ConventionConverter implements ITypeConverter<Convention> {
        @Override
        public Convention convert(String value) {
            return Convention.parse(value);
        }
    }

    /** Reads {@code --phylip-format} values. */
    static final class PhylipFormatConverter implements ITypeConverter<PhylipFormat> {
        @Override
        public PhylipFormat convert(String value) {
            try {
                return PhylipFormat.parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** Reads {@code --method} values. */
    static final class MethodConverter implements ITypeConverter<TreeMethod> {
        @Override
        public TreeMethod convert(String value) {
            return TreeMethod.parse(value);
        }
    }
}
