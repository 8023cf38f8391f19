package io.rocket.apps.forensics;

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
import io.rocket.core.UsageException;
import io.rocket.core.summary.RunSummary;
import io.rocket.apps.query.BestReferences;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code rocket forensics DIR}: common-source camera identification by PRNU for every pair of photos in a
 * directory — the pair scores streamed as a TSV, and on request the score matrix and the clusters of photos taken
 * by the same camera. With {@code --against REFS} the photos are queries compared with reference photos only, and
 * {@code --identify FILE} names each query's best reference.
 */
@Command(name = "forensics", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Common-source camera identification: which photos in DIR (*.jpg, *.jpeg, all of one size) "
                + "were taken by the same camera, from their sensor noise (PRNU). Each photo's noise pattern is "
                + "extracted once (noise filter, zero-mean total, Wiener filter); every pair is scored by PCE or NCC; "
                + "photos are clustered by average linkage cut at the threshold."})
public final class ForensicsCommand implements Callable<Integer> {

    private static final int MAX_IGNORED_NAMES = 5;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "Directory of JPEG photos (a local "
            + "path, file:, sftp:// or s3:// URI); other files are ignored.")
    String dir;

    @Mixin
    InputsMixin inputs;

    @Option(names = "--metric", paramLabel = "M", defaultValue = "pce", converter = MetricConverter.class,
            description = "Similarity: pce (peak-to-correlation energy) or ncc (normalised cross-correlation). "
                    + "Default: ${DEFAULT-VALUE}.")
    Metric metric;

    @ResultNeutral
    @Option(names = "--threshold", paramLabel = "T", description = "Scores at or above T mean the same camera. "
            + "Default: 60 for pce, 0.01 for ncc (when to raise it: Thresholds in docs/apps/forensics.md).")
    Double threshold;

    @OutputFile
    @Option(names = "--matrix", paramLabel = "FILE", description = "Write the n x n score matrix (TSV with a header "
            + "row and column of file names; empty diagonal, NaN for missing pairs).")
    Path matrix;

    @OutputFile
    @Option(names = "--clusters", paramLabel = "FILE", description = "Write file<TAB>cluster for every photo "
            + "(clusters numbered from 1 in file order; NA for a photo that failed to load). With --min-score or "
            + "--top-k the clusters come from the kept pairs alone, every other pair counting as 0 (as the --min-score "
            + "value where that is below 0).")
    Path clusters;

    @OutputFile
    @Option(names = "--identify", paramLabel = "FILE", description = "With --against: write each query photo's best "
            + "reference photo, its score and whether it passes the threshold (TSV: query, rank, reference, score, "
            + "same_camera yes/no).")
    Path identify;

    @Option(names = "--size", paramLabel = "WxH", description = "The photos' size. Default: the most common size "
            + "among the first photos.")
    String size;

    /** {@code --against REFS}: query photos against reference photos; {@code --pairs FILE}: listed pairs. */
    @Mixin
    PairSpaceMixin spaces;

    @Mixin
    RuntimeOptionsMixin runtime;

    @Mixin
    OutputFormatMixin outputFormat;

    /** {@code --top-k}: the most similar photos of each; {@code --min-score}: the pairs at or above a score. */
    @Mixin
    ReductionOptions reduction;

    @Override
    public Integer call() throws Exception {
        double cut = threshold != null ? threshold : metric.defaultThreshold();
        boolean reduced = reduction.reduction() != null;
        if (reduced && matrix != null) {
            throw new UsageException("--matrix needs every score: leave out --top-k, --min-score and --max-score "
                    + "(--clusters works with --top-k and --min-score, from the kept pairs)");
        }
        DeviceKind kind = runtime.toRocketOptions().device().kind();
        if (kind == DeviceKind.SIM) {
            throw new UsageException("forensics runs on --device cpu or cuda (sim models time and computes nothing)");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        // With a reduction the clusters come from the kept pairs; a pair not kept counts as the fill.
        double fill = reduced && clusters != null ? FillScore.of(reduction.reduction(), cut, err) : Double.NaN;
        if (identify != null && !spaces.hasReferences()) {
            throw new UsageException("--identify names the best reference of each query: give the references with "
                    + "--against");
        }
        InputsMixin.Source from = inputs.source(dir, "photos");
        PhotoDirectory.Listing listing = PhotoDirectory.scan(from, spaces.hasReferences() ? 1 : 2);
        noteIgnored(listing.ignored(), err);
        InputsMixin.Source refSource = spaces.referenceSource();
        PhotoDirectory.Listing refs = refSource == null ? null : PhotoDirectory.scan(refSource, 1);
        PairSpaceMixin.Items<Path> run = spaces.resolve(listing.photos(), refs == null ? null : refs.photos(),
                ForensicsApp::fileName);
        boolean triangle = run.space().isEverything();
        if (!triangle && (matrix != null || clusters != null)) {
            throw new UsageException("--matrix and --clusters need every pair of the photos: leave out --against "
                    + "and --pairs (with --against, --identify names each query's best reference)");
        }
        int[] wh = size != null ? parseSize(size) : PhotoDirectory.commonSize(run.items());
        // Each device runs its own transforms; the runtime already keeps every core busy.
        FftThreading.configure(1);
        long maxFileBytes = Math.max(listing.maxFileBytes(), refs == null ? 0 : refs.maxFileBytes());
        ForensicsApp app = new ForensicsApp(new ForensicsPipeline(wh[0], wh[1], metric), maxFileBytes);
        String photos = refs == null ? run.items().size() + " photos of " + wh[0] + "x" + wh[1] + " in " + from.name()
                : run.describe("photo", from.name(), refSource.name()) + ", " + wh[0] + "x" + wh[1];
        out.printf(Locale.ROOT, "forensics: %s, %s (same camera at >= %s); item %.1f MB%n", photos, metric.name(),
                cut, app.maxItemBytes() / 1e6);
        out.flush();
        List<String> labels = run.items().stream().map(ForensicsApp::fileName).toList();
        // The dense n x n matrix only where the outputs need every score; the kept pairs only for reduced clusters.
        PhotoScores scores = !triangle ? null : !reduced ? new SimilarityCollector(labels.size())
                : clusters != null ? new ScoreGraph(labels.size(), fill) : null;
        Identification identification = identify == null ? null : new Identification(identify, cut);
        BestReferences<Path, Double> best = identification == null ? null : identification.collector(run.block());
        List<ResultSink<Path, Double>> sinks = new ArrayList<>();
        if (scores != null) {
            sinks.add(scores);
        }
        if (best != null) {
            sinks.add(best);
        }
        RunSummary summary = JobRunner.run(app, run.items(), run.space(), runtime,
                run.outputs(outputFormat.settings(), true), reduction, d -> Double.toString(d), "score", out, sinks);
        if (scores != null && runtime.writesOutputs()) {
            new ForensicsOutputs(matrix, clusters, metric, cut).write(scores, summary, labels, from.directory(), out,
                    err);
        }
        if (best != null && runtime.writesOutputs()) {
            // A generated set's truth.tsv lies beside the references, or beside the queries.
            identification.write(best, labels, Arrays.asList(refSource.directory(), from.directory()), out, err);
        }
        return JobRunner.exitCode(summary);
    }

    /** Parses {@code WxH}. */
    static int[] parseSize(String text) {
        String[] parts = text.toLowerCase(Locale.ROOT).split("x");
        try {
            if (parts.length == 2) {
                int w = Integer.parseInt(parts[0].trim());
                int h = Integer.parseInt(parts[1].trim());
                if (w >= 2 && h >= 2) {
                    return new int[] {w, h};
                }
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--size must be WIDTHxHEIGHT in pixels (at least 2x2), got '" + text + "'");
    }

    private static void noteIgnored(List<String> ignored, PrintWriter err) {
        if (ignored.isEmpty()) {
            return;
        }
        List<String> shown = ignored.subList(0, Math.min(MAX_IGNORED_NAMES, ignored.size()));
        err.println("forensics: note: ignoring " + (ignored.size() == 1 ? "1 entry that is not a JPEG photo: "
                : ignored.size() + " entries that are not JPEG photos: ") + String.join(", ", shown)
                + (ignored.size() > shown.size() ? ", ..." : ""));
        err.flush();
    }

    /** Reads {@code --metric} values. */
    static final class MetricConverter implements picocli.CommandLine.ITypeConverter<Metric> {
        @Override
        public Metric convert(String value) {
            try {
                return Metric.valueOf(value.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException("expected pce or ncc, got '" + value + "'");
            }
        }
    }
}
