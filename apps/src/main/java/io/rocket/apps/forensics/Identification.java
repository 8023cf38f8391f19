package io.rocket.apps.forensics;

import io.rocket.apps.query.BestReferences;
import io.rocket.apps.query.MatchTable;
import io.rocket.cli.QueryBlock;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code forensics --against REFS --identify FILE}: each query photo's best reference photo, its score and whether
 * it passes the threshold, as a table, a line on stdout, and — when a {@code truth.tsv} beside the references or the
 * queries names the cameras of both — how many queries name a photo of their own camera.
 */
final class Identification {

    private final Path file;
    private final double threshold;

    /** Identification written to {@code file}, a match at or above {@code threshold} meaning the same camera. */
    Identification(Path file, double threshold) {
        this.file = file;
        this.threshold = threshold;
    }

    /** The collector for a run whose queries and references lie as {@code block} says. */
    BestReferences<Path, Double> collector(QueryBlock block) {
        return new BestReferences<>(block, 1, Double::doubleValue, false);
    }

    /** Writes the table and the report; {@code labels} are the run's photos in index order. */
    void write(BestReferences<Path, Double> best, List<String> labels, List<Path> truthDirs, PrintWriter out,
               PrintWriter err) {
        int matched = MatchTable.write(file, best, labels, "score", "same_camera",
                s -> s >= threshold ? "yes" : "no");
        out.printf(Locale.ROOT, "identify: best reference of %d of %d queries -> %s%n", matched,
                best.block().queries(), file);
        TruthTable truth = truth(truthDirs, err);
        if (truth != null) {
            int known = 0;
            int right = 0;
            for (int q = 0; q < best.block().queries(); q++) {
                String camera = truth.cameraOf(labels.get(q));
                List<BestReferences.Match> matches = best.matches(q);
                if (camera == null || matches.isEmpty()) {
                    continue;
                }
                known++;
                right += camera.equals(truth.cameraOf(labels.get(matches.get(0).reference()))) ? 1 : 0;
            }
            if (known > 0) {
                out.printf(Locale.ROOT, "identify: against %s, %d of %d queries name a photo of their own camera%n",
                        TruthTable.FILE_NAME, right, known);
            }
        }
        out.flush();
    }

    /** The first readable truth table among {@code dirs} (null entries skipped), or null. */
    private static TruthTable truth(List<Path> dirs, PrintWriter err) {
        for (Path dir : dirs) {
            if (dir == null || !Files.isRegularFile(dir.resolve(TruthTable.FILE_NAME))) {
                continue;
            }
            try {
                return TruthTable.read(dir);
            } catch (IOException | RuntimeException e) {
                err.println("forensics: note: cannot compare with " + dir.resolve(TruthTable.FILE_NAME) + ": "
                        + e.getMessage());
            }
        }
        return null;
    }
}
