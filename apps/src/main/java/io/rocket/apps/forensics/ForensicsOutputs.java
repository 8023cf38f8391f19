package io.rocket.apps.forensics;

import io.rocket.core.RocketException;
import io.rocket.core.summary.RunSummary;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a forensics user gets at the end of a run: the n×n score matrix, the clusters (average linkage cut at the
 * threshold, from every score or from the kept pairs of a reduced run, see {@link PhotoScores}) as a file and as a
 * short report, and — when the directory holds the generator's {@code truth.tsv} — the adjusted Rand index of the
 * clusters against the truth.
 *
 * <p>Photos that failed to load are left out of the clustering and marked {@code NA} in the clusters file; a pair
 * that is missing among the others counts as no evidence of a common camera (see {@link AverageLinkage}).
 */
public final class ForensicsOutputs {

    /** The cluster label of a photo that could not be loaded. */
    public static final String NOT_CLUSTERED = "NA";

    private final Path matrixFile;
    private final Path clustersFile;
    private final Metric metric;
    private final double threshold;

    /**
     * @param matrixFile   where to write the matrix, or null
     * @param clustersFile where to write the clusters, or null
     */
    public ForensicsOutputs(Path matrixFile, Path clustersFile, Metric metric, double threshold) {
        this.matrixFile = matrixFile;
        this.clustersFile = clustersFile;
        this.metric = metric;
        this.threshold = threshold;
    }

    /**
     * The clusters of a run.
     *
     * @param ids one 1-based cluster number per photo in key order (clusters numbered by their first photo), 0 for a
     *            photo left out
     * @param sizes the cluster sizes, largest first
     */
    public record Clusters(int[] ids, List<Integer> sizes) {
    }

    /** Clusters the photos that loaded. */
    public Clusters cluster(PhotoScores scores, Set<Integer> failedItems) {
        int n = scores.size();
        int[] kept = new int[n - failedItems.size()];
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (!failedItems.contains(i)) {
                kept[k++] = i;
            }
        }
        int[] ids = new int[n];
        List<Integer> sizes = new ArrayList<>();
        if (kept.length > 0) {
            int[] cut = scores.cut(kept, threshold);
            int clusters = Arrays.stream(cut).max().orElse(-1) + 1;
            int[] count = new int[clusters];
            for (int a = 0; a < kept.length; a++) {
                ids[kept[a]] = cut[a] + 1;
                count[cut[a]]++;
            }
            for (int c : count) {
                sizes.add(c);
            }
            sizes.sort(Collections.reverseOrder());
        }
        return new Clusters(ids, List.copyOf(sizes));
    }

    /**
     * Writes the asked-for files and the report; {@code labels} are the photos in key order. The matrix needs every
     * score: a {@link SimilarityCollector}.
     */
    public void write(PhotoScores scores, RunSummary summary, List<String> labels, Path dir, PrintWriter out,
                      PrintWriter err) {
        Set<Integer> failed = new TreeSet<>();
        summary.failures.forEach(f -> failed.add(f.item()));
        Clusters clusters = cluster(scores, failed);
        if (matrixFile != null) {
            SimilarityCollector every = scores.every();
            if (every == null) {
                throw new IllegalStateException("the matrix needs every score, not " + scores.getClass().getName());
            }
            writeFile(matrixFile, w -> writeMatrix(every, labels, w));
            out.println("matrix: " + labels.size() + " x " + labels.size() + " " + metric.name() + " scores -> "
                    + matrixFile);
        }
        if (clustersFile != null) {
            writeFile(clustersFile, w -> writeClusters(clusters, labels, w));
            out.println("clusters: -> " + clustersFile);
        }
        if (scores.basis() != null) {
            out.println(scores.basis());
        }
        report(clusters, failed, labels, out);
        compareWithTruth(clusters, failed, labels, dir, out, err);
        out.flush();
        err.flush();
    }

    private void report(Clusters clusters, Set<Integer> failed, List<String> labels, PrintWriter out) {
        int clustered = labels.size() - failed.size();
        long singletons = clusters.sizes().stream().filter(s -> s == 1).count();
        out.printf(Locale.ROOT, "forensics: %d photos in %d clusters at %s >= %s (%d of one photo); sizes: %s%n",
                clustered, clusters.sizes().size(), metric.name(), format(threshold), singletons,
                summarise(clusters.sizes()));
        if (!failed.isEmpty()) {
            List<String> names = new ArrayList<>();
            failed.forEach(i -> names.add(labels.get(i)));
            out.printf(Locale.ROOT, "forensics: %d photo(s) not clustered (failed to load): %s%n", failed.size(),
                    String.join(", ", names));
        }
    }

    /** Sizes as "6, 6, 5, 1 (x4)" (runs of equal sizes beyond three are counted). */
    static String summarise(List<Integer> sizes) {
        StringBuilder b = new StringBuilder();
        int i = 0;
        while (i < sizes.size()) {
            int j = i;
            while (j < sizes.size() && sizes.get(j).equals(sizes.get(i))) {
                j++;
            }
            int run = j - i;
            String part = run > 3 ? sizes.get(i) + " (x" + run + ")"
                    : String.join(", ", Collections.nCopies(run, String.valueOf(sizes.get(i))));
            b.append(b.length() == 0 ? "" : ", ").append(part);
            i = j;
        }
        return b.length() == 0 ? "none" : b.toString();
    }

    private static void compareWithTruth(Clusters clusters, Set<Integer> failed, List<String> labels, Path dir,
                                         PrintWriter out, PrintWriter err) {
        if (dir == null || !Files.isRegularFile(dir.resolve(TruthTable.FILE_NAME))) {
            return;
        }
        try {
            TruthTable truth = TruthTable.read(dir);
            List<String> files = new ArrayList<>();
            List<Integer> found = new ArrayList<>();
            for (int i = 0; i < labels.size(); i++) {
                if (!failed.contains(i) && truth.cameraOf(labels.get(i)) != null) {
                    files.add(labels.get(i));
                    found.add(clusters.ids()[i]);
                }
            }
            if (files.isEmpty()) {
                return;
            }
            int[] expected = truth.cameraIds(files);
            int[] got = found.stream().mapToInt(Integer::intValue).toArray();
            out.printf(Locale.ROOT, "forensics: against %s (%d cameras, %d photos): adjusted Rand index %.3f%s%n",
                    TruthTable.FILE_NAME, Arrays.stream(expected).max().orElse(-1) + 1, files.size(),
                    AdjustedRandIndex.of(got, expected),
                    AdjustedRandIndex.of(got, expected) == 1.0 ? " (clusters equal the truth)" : "");
        } catch (IOException | RuntimeException e) {
            err.println("forensics: note: cannot compare with " + dir.resolve(TruthTable.FILE_NAME) + ": "
                    + e.getMessage());
        }
    }

    private static void writeMatrix(SimilarityCollector scores, List<String> labels, BufferedWriter w)
            throws IOException {
        w.write("file");
        for (String label : labels) {
            w.write('\t');
            w.write(label);
        }
        w.newLine();
        for (int i = 0; i < labels.size(); i++) {
            w.write(labels.get(i));
            for (int j = 0; j < labels.size(); j++) {
                w.write('\t');
                w.write(i == j ? "" : format(scores.get(i, j)));
            }
            w.newLine();
        }
    }

    private static void writeClusters(Clusters clusters, List<String> labels, BufferedWriter w) throws IOException {
        // No header, like truth.tsv: the two files read the same way.
        for (int i = 0; i < labels.size(); i++) {
            w.write(labels.get(i));
            w.write('\t');
            w.write(clusters.ids()[i] == 0 ? NOT_CLUSTERED : String.valueOf(clusters.ids()[i]));
            w.newLine();
        }
    }

    private static String format(double value) {
        return Double.isNaN(value) ? "NaN" : Double.toString(value);
    }

    /** Writes one text file. */
    private interface Writing {
        void to(BufferedWriter writer) throws IOException;
    }

    private static void writeFile(Path file, Writing writing) {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            writing.to(w);
        } catch (IOException e) {
            throw new RocketException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
