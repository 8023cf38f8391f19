package io.rocket.cli;

import io.rocket.core.RocketException;
import io.rocket.results.reduce.Reduction;
import picocli.CommandLine.Option;

/**
 * The options that reduce a run's results on the nodes that compute them: {@code --top-k}, {@code --min-score},
 * {@code --max-score} (see docs/user-guide/reducing-on-the-nodes.md). A picocli mixin, shared by the generic
 * application command and the bundled commands whose results have a score. They change what is written, not any
 * pair's result, so they are not part of a job's identity (journal, disk cache); every node of a cluster run must
 * still be given the same ones, which {@link #fingerprint} sees to.
 */
public final class ReductionOptions {

    /** No reduction; picocli sets the options given. */
    public ReductionOptions() {
    }

    @Option(names = "--top-k", paramLabel = "K",
            description = "Keep only the K best partners of every item (both directions; the pair is kept when it is "
                    + "among the K best of either item), ranked by the application's score; decided on the node that "
                    + "computed the pair, so rank 0 holds at most items × K results. Written at the end of the run.")
    Integer topK;

    @Option(names = "--min-score", paramLabel = "S",
            description = "Keep only pairs whose score is at least S (with --max-score: a band).")
    Double minScore;

    @Option(names = "--max-score", paramLabel = "S",
            description = "Keep only pairs whose score is at most S (with --min-score: a band).")
    Double maxScore;

    /**
     * The reduction these options ask for.
     *
     * @return the reduction, or null when none of the options is given (every result is kept)
     * @throws RocketException when {@code --top-k} is below 1 or the band is empty (one line naming the option)
     */
    public Reduction reduction() {
        return Reduction.of(topK, minScore, maxScore);
    }

    /**
     * A cluster fingerprint that also covers the reduction, so that nodes given different reductions refuse to run
     * together (a node that drops what rank 0 would keep would lose results).
     *
     * @param fingerprint the job's fingerprint without the reduction
     * @return {@code fingerprint} itself without a reduction, else it with the reduction appended
     * @throws RocketException when the options are unusable, as {@link #reduction()}
     */
    public String fingerprint(String fingerprint) {
        Reduction reduction = reduction();
        return reduction == null ? fingerprint : fingerprint + "+reduce:" + reduction.topK() + ","
                + reduction.minScore() + "," + reduction.maxScore();
    }
}
