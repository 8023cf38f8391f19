package io.rocket.apps.query;

import io.rocket.core.RocketException;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * Writes the best references of each query as a TSV: a header, then one row per kept reference of each query
 * (best first, ranked from 1), or one row with empty reference and score for a query none of whose pairs arrived.
 * An extra column may judge each match (for example whether a score passes the threshold).
 */
public final class MatchTable {

    private MatchTable() {
    }

    /**
     * Writes the table.
     *
     * @param file       where to write it
     * @param best       the gathered matches
     * @param labels     the labels of the run's items, by index
     * @param scoreName  the header of the score column, e.g. {@code distance}
     * @param judgeName  the header of the judging column, or null for none
     * @param judge      the judging column's text for a score; unused when {@code judgeName} is null
     * @return the number of queries with at least one match
     * @throws RocketException when the file cannot be written
     */
    public static int write(Path file, BestReferences<?, ?> best, List<String> labels, String scoreName,
                            String judgeName, DoubleFunction<String> judge) {
        int matched = 0;
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("query\trank\treference\t" + scoreName + (judgeName == null ? "" : "\t" + judgeName));
            w.newLine();
            for (int q = 0; q < best.block().queries(); q++) {
                List<BestReferences.Match> matches = best.matches(q);
                matched += matches.isEmpty() ? 0 : 1;
                if (matches.isEmpty()) {
                    w.write(labels.get(q) + "\t\t\t" + (judgeName == null ? "" : "\t"));
                    w.newLine();
                }
                for (int m = 0; m < matches.size(); m++) {
                    BestReferences.Match match = matches.get(m);
                    w.write(labels.get(q) + "\t" + (m + 1) + "\t" + labels.get(match.reference()) + "\t"
                            + match.score() + (judgeName == null ? "" : "\t" + judge.apply(match.score())));
                    w.newLine();
                }
            }
        } catch (IOException e) {
            throw new RocketException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return matched;
    }
}
