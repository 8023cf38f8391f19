package io.rocket.cli;

import io.rocket.core.ResultSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The display without a terminal: lines to the stream it is given, from its own thread, stopped by close. */
class ProgressDisplayTest {

    /** Counts what reaches it. */
    private static final class Counting implements ResultSink<Integer, Long> {
        final AtomicLong accepted = new AtomicLong();
        final AtomicLong replayed = new AtomicLong();

        @Override
        public void accept(int i, int j, Integer left, Integer right, Long result) {
            accepted.incrementAndGet();
        }

        @Override
        public void failed(int i, int j, Integer left, Integer right, Throwable error) {
            accepted.incrementAndGet();
        }

        @Override
        public void replay(int i, int j, Integer left, Integer right, Long result) {
            replayed.incrementAndGet();
        }
    }

    @Test
    @Timeout(30)
    void linesEveryInterval_thenOneAtTheEnd_andTheThreadStops() throws Exception {
        Counting next = new Counting();
        StringWriter text = new StringWriter();
        ProgressDisplay<Integer, Long> display = ProgressDisplay.lines(next, 1_000, Duration.ofMillis(50),
                new PrintWriter(text));
        for (int k = 0; k < 100; k++) {
            display.replay(0, k + 1, 0, k + 1, 7L);
        }
        for (int k = 0; k < 900; k++) {
            display.accept(1, k + 2, 1, k + 2, 7L);
            if (k % 100 == 99) {
                Thread.sleep(40);
            }
        }
        display.close();
        assertThat(display.running()).isFalse();
        assertThat(next.accepted).hasValue(900);
        assertThat(next.replayed).hasValue(100);
        List<String> lines = text.toString().lines().toList();
        assertThat(lines.size()).as(text.toString()).isGreaterThanOrEqualTo(3);
        for (String line : lines.subList(0, lines.size() - 1)) {
            assertThat(line).matches("rocket: [0-9,]+/1,000 pairs \\([0-9.]+%, 100 resumed\\), [0-9.,]+ pairs/s, "
                    + "ETA ([0-9]+:[0-9]{2}:[0-9]{2}|\\?)");
        }
        assertThat(lines.get(lines.size() - 1))
                .matches("rocket: 1,000/1,000 pairs \\(100.0%, 100 resumed\\), [0-9.,]+ pairs/s, done in 0:00:0[0-9]");
        // Closed: nothing more is printed.
        int length = text.toString().length();
        Thread.sleep(150);
        display.close();
        assertThat(text.toString()).hasSize(length);
    }

    @Test
    @Timeout(30)
    void beforeTheClusterForms_saysWhatItWaitsFor_neverPairs_andNoLastLineWhenItNeverForms() throws Exception {
        StringWriter text = new StringWriter();
        ProgressDisplay<Integer, Long> display = ProgressDisplay.lines(new Counting(), 1_000, Duration.ofMillis(20),
                new PrintWriter(text));
        display.joining(List.of(1, 2), 12_400, 60_000);
        while (text.toString().lines().count() < 2) {
            Thread.sleep(10);
        }
        display.close();
        assertThat(text.toString().lines().toList())
                .allSatisfy(line -> assertThat(line).isEqualTo("rocket: waiting for ranks 1, 2 to join (12 s of 60 s)"));
        assertThat(ProgressDisplay.waitingLine(List.of(3), 0, 5_000)).isEqualTo("waiting for rank 3 to join (0 s of 5 s)");
    }

    @Test
    void nothingDone_noLastLine_andOffWhenThereIsNothingToShow() {
        StringWriter text = new StringWriter();
        ProgressDisplay<Integer, Long> display = ProgressDisplay.lines(new Counting(), 10, Duration.ofSeconds(30),
                new PrintWriter(text));
        display.close();
        assertThat(text.toString()).isEmpty();
        PrintWriter out = new PrintWriter(text);
        assertThat(ProgressDisplay.lines(new Counting(), 0, Duration.ofSeconds(1), out)).isNull();
        assertThat(ProgressDisplay.open(new Counting(), 10, null, out)).isNull();
        assertThat(ProgressDisplay.open(new Counting(), 10, Duration.ZERO, out)).isNull();
    }
}
