package io.rocket.cli;

import io.rocket.core.summary.RunSummary;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Rank 0's line about lost nodes, which the launchers pass on as the job's outcome. */
class JobRunnerTest {

    private static RunSummary summary(List<Integer> lost, long recomputed, long pairs, long errors) {
        RunSummary s = new RunSummary();
        s.pairs = pairs;
        s.errors = errors;
        s.cluster.put("lost_nodes", lost.size());
        s.cluster.put("lost_ranks", lost);
        s.cluster.put("recomputed_pairs", recomputed);
        return s;
    }

    @Test
    void oneLostRank_namesItAndTheRecomputedPairs() {
        assertThat(JobRunner.lossLine(summary(List.of(2), 10_156, 44_850, 0)))
                .isEqualTo("rocket: lost rank 2; 10,156 pairs recomputed; all 44,850 pairs done");
    }

    @Test
    void severalLostRanks_andFailedPairs() {
        assertThat(JobRunner.lossLine(summary(List.of(1, 3), 7, 40, 5)))
                .isEqualTo("rocket: lost ranks 1, 3; 7 pairs recomputed; all 45 pairs done (5 failed)");
    }

    @Test
    void noLoss_noLine() {
        assertThat(JobRunner.lossLine(summary(List.of(), 0, 10, 0))).isNull();
        assertThat(JobRunner.lossLine(new RunSummary())).isNull();
    }
}
