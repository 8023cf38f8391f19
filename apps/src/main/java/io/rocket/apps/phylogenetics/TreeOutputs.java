package io.rocket.apps.phylogenetics;

import io.rocket.core.RocketException;
import io.rocket.core.summary.RunSummary;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes what a phylogenetics user wants at the end of a run: the distance matrix (PHYLIP) and the tree (Newick) of
 * the taxa whose distances are complete, a line for each output on the command's output, and on its error stream
 * the taxa that had to be left out and why. Either file may be absent (not asked for).
 */
final class TreeOutputs {

    private final Path matrixFile;
    private final Path treeFile;
    private final TreeMethod method;
    private final boolean lower;

    TreeOutputs(Path matrixFile, Path treeFile, TreeMethod method) {
        this(matrixFile, treeFile, method, false);
    }

    /** Outputs with the PHYLIP matrix square or, when {@code lower}, as its lower triangle. */
    TreeOutputs(Path matrixFile, Path treeFile, TreeMethod method, boolean lower) {
        this.matrixFile = matrixFile;
        this.treeFile = treeFile;
        this.method = method;
        this.lower = lower;
    }

    /** Writes the outputs of {@code outcome}; {@code labels} are all taxa in key order. */
    void write(DistanceCollector.Outcome outcome, RunSummary summary, List<String> labels, PrintWriter out,
               PrintWriter err) {
        if (!outcome.dropped().isEmpty()) {
            reportDropped(outcome.dropped(), summary, labels, err);
        }
        DistanceMatrix matrix = outcome.matrix();
        if (matrix.size() == 0) {
            err.println("phylogenetics: no matrix or tree written: no taxon has all its distances");
            err.flush();
            return;
        }
        if (matrixFile != null) {
            writeFile(matrixFile, w -> PhylipWriter.write(matrix, w, lower));
            out.println("matrix: " + matrix.size() + " taxa, PHYLIP" + (lower ? " lower triangle" : "") + " -> "
                    + matrixFile);
        }
        if (treeFile != null) {
            TreeNode tree = method.build(matrix);
            writeFile(treeFile, w -> w.write(NewickWriter.toNewick(tree) + "\n"));
            out.println("tree: " + matrix.size() + " taxa, " + method.description() + ", Newick -> " + treeFile);
        }
        out.flush();
    }

    private static void reportDropped(List<Integer> dropped, RunSummary summary, List<String> labels,
                                      PrintWriter err) {
        Map<Integer, String> reasons = new HashMap<>();
        for (RunSummary.Failure failure : summary.failures) {
            reasons.put(failure.item(), failure.error());
        }
        err.println("phylogenetics: " + dropped.size() + " of " + labels.size()
                + " taxa left out of the matrix and tree (their distances are incomplete):");
        for (int item : dropped) {
            String reason = reasons.get(item);
            err.println("  " + (reason != null ? reason
                    : "item " + item + " (" + labels.get(item) + "): some of its pairs failed (see --errors)"));
        }
        err.flush();
    }

    private interface Content {
        void writeTo(Writer writer) throws IOException;
    }

    private static void writeFile(Path file, Content content) {
        try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            content.writeTo(writer);
        } catch (IOException | UncheckedIOException e) {
            throw new RocketException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
