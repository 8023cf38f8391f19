package io.rocket.apps.forensics;

import io.rocket.core.RocketException;
import io.rocket.core.UsageException;
import io.rocket.results.reduce.Reduction;

import java.io.PrintWriter;

/**
 * The score that every pair a reduction did not keep counts as when {@code --clusters} is made from the kept pairs
 * ({@link ScoreGraph}), and the checks of that setting.
 *
 * <p>The fill is 0 for both metrics: photos of different cameras score about 0 (PCE ±1–10, NCC ±1/√pixels), so 0 is
 * what a dropped pair most likely scored, and it is what the dense clustering counts a missing pair as. Filling
 * with the {@code --min-score} value instead would raise every cluster average towards the cut and merge cameras.
 * Only when {@code --min-score} is below 0 is the fill that value, since every dropped pair then scored below it.
 */
final class FillScore {

    private FillScore() {
    }

    /**
     * The fill for a reduced run's clusters, after refusing the settings that cannot give the right clusters.
     *
     * @param reduction the run's reduction, never null
     * @param threshold the cut of the clusters
     * @param err       where a note on a doubtful setting goes
     * @return the score a pair that was not kept counts as
     * @throws RocketException (one line) with {@code --max-score}, which drops the most similar pairs, or when the
     *                         threshold is not above the fill, where clusters with no kept pair between them would merge
     */
    static double of(Reduction reduction, double threshold, PrintWriter err) {
        if (reduction.maxScore() != Double.POSITIVE_INFINITY) {
            throw new UsageException("--clusters cannot be combined with --max-score: it drops the most similar "
                    + "pairs, which the clusters are made of (use --min-score or --top-k)");
        }
        double min = reduction.minScore();
        double fill = min == Double.NEGATIVE_INFINITY ? 0.0 : Math.min(0.0, min);
        if (!(threshold > fill)) {
            throw new UsageException("--clusters with a reduction needs --threshold above " + fill + ", the score "
                    + "every pair not kept counts as (clusters with no kept pair between them would merge), got "
                    + threshold);
        }
        if (min > threshold) {
            err.println("forensics: note: --min-score " + min + " is above --threshold " + threshold + ": pairs "
                    + "scoring between the two are dropped and count as " + fill + " in the clusters");
            err.flush();
        }
        return fill;
    }
}
