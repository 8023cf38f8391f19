package io.rocket.apps;

import io.rocket.apps.Cli.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Progress without a terminal (as in a batch job): one line every interval and one at the end on the command's
 * error stream, nothing on its output.
 */
class ProgressOutputTest {

    private static final String PERIODIC = "rocket: [0-9,]+/3,160 pairs \\([0-9.]+%\\), [0-9.,]+ pairs/s, "
            + "ETA ([0-9]+:[0-9]{2}:[0-9]{2}|\\?)";

    @Test
    @Timeout(60)
    void singleNode_shortInterval_linesOnStderr_lastOneSaysDone() {
        // 3,160 pairs of 0.5 ms on one device: well over a second, so several lines at 0.1 s.
        Result r = Cli.run("synthetic", "--items", "80", "--item-bytes", "64", "--compare-ms", "0.5",
                "--progress-interval", "0.1", "--verify");
        assertThat(r.code()).as(r.both()).isZero();
        List<String> lines = r.err().lines().toList();
        assertThat(lines.size()).as(r.both()).isGreaterThanOrEqualTo(3);
        for (String line : lines.subList(0, lines.size() - 1)) {
            assertThat(line).matches(PERIODIC);
        }
        assertThat(lines).anySatisfy(line -> assertThat(line).matches(".* pairs/s, ETA [0-9]+:[0-9]{2}:[0-9]{2}"));
        assertThat(lines.get(lines.size() - 1))
                .matches("rocket: 3,160/3,160 pairs \\(100.0%\\), [0-9.,]+ pairs/s, done in [0-9]+:[0-9]{2}:[0-9]{2}");
        assertThat(r.out()).doesNotContain("rocket: ").contains("verified: all 3160 pairs");
    }

    @Test
    void shortRun_defaultInterval_onlyTheLastLine() {
        Result r = Cli.run("synthetic", "--items", "20", "--item-bytes", "64");
        assertThat(r.code()).as(r.both()).isZero();
        assertThat(r.err()).matches("rocket: 190/190 pairs \\(100.0%\\), [0-9.,]+ pairs/s, done in 0:00:[0-9]{2}\\R");
    }

    @Test
    void noProgress_orIntervalZero_nothingOnStderr() {
        for (String[] off : new String[][]{{"--no-progress"}, {"--progress-interval", "0"}}) {
            String[] args = new String[4 + off.length];
            System.arraycopy(new String[]{"synthetic", "--items", "20", "--verify"}, 0, args, 0, 4);
            System.arraycopy(off, 0, args, 4, off.length);
            Result r = Cli.run(args);
            assertThat(r.code()).as(r.both()).isZero();
            assertThat(r.err()).as(String.join(" ", off)).isEmpty();
        }
    }

    @Test
    void negativeInterval_oneLineError() {
        Result r = Cli.run("synthetic", "--items", "20", "--progress-interval", "-1");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("rocket: --progress-interval must be 0 (off) to 86400 seconds, "
                + "got -1.0 (see: rocket synthetic --help)");
    }
}
