package io.rocket.apps.cluster;

import io.rocket.apps.Launcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real JVM ranks on 127.0.0.1, one of them frozen (SIGSTOP) past the failure timeout and then resumed (SIGCONT): a
 * frozen rank above 0 learns it was excluded and stops with one line, while the others finish the job; when rank 0
 * was frozen, the other ranks' lines do not contradict rank 0's outcome (it finishes the job alone).
 */
class FrozenRankProcessTest {
    private static final String[] APP = {"synthetic", "--items", "300", "--item-bytes", "64", "--compare-ms", "1",
            "--seed", "2", "--host-threads", "1", "--tile-size", "8", "--verify", "--failure-timeout", "3"};

    @TempDir
    Path dir;

    private Process start(int nodes, int rank, String hosts) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                Launcher.class.getName()));
        cmd.addAll(List.of(APP));
        cmd.addAll(List.of("--nodes", "" + nodes, "--rank", "" + rank, "--hosts", hosts));
        ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("rank-" + rank + ".log").toFile());
        builder.environment().put("ROCKET_LOG_LEVEL", "INFO"); // the test watches for the start of the run
        return builder.start();
    }

    private List<Process> startAll(int nodes) throws IOException {
        String hosts = ProcessClusterTest.hosts(nodes);
        List<Process> processes = new ArrayList<>();
        for (int r = 0; r < nodes; r++) {
            processes.add(start(nodes, r, hosts));
        }
        return processes;
    }

    private String log(int rank) throws IOException {
        return Files.readString(dir.resolve("rank-" + rank + ".log"));
    }

    /** Waits until rank {@code r}'s log says the run started, plus {@code millis}. */
    private void awaitRunning(int r, long millis) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline && !log(r).contains("run starts")) {
            Thread.sleep(100);
        }
        assertThat(log(r)).contains("run starts");
        Thread.sleep(millis);
    }

    private static void signal(Process p, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).as("kill -%s", signal).isZero();
    }

    /** Freezes {@code p} for {@code seconds}, then lets it go on. */
    private static void freeze(Process p, long seconds) throws Exception {
        signal(p, "STOP");
        try {
            Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        } finally {
            signal(p, "CONT");
        }
    }

    private static void stopAll(List<Process> processes) {
        for (Process p : processes) {
            p.destroyForcibly();
        }
    }

    @Test
    @Timeout(240)
    void aRankFrozenPastTheFailureTimeout_learnsItWasExcluded_andStops_theOthersFinish() throws Exception {
        List<Process> processes = startAll(3);
        try {
            awaitRunning(2, 1000);
            assertThat(processes.get(2).isAlive()).as("rank 2 still running when frozen").isTrue();
            freeze(processes.get(2), 10);
            for (int r = 0; r < 3; r++) {
                assertThat(processes.get(r).waitFor(150, TimeUnit.SECONDS)).as("rank %d ended: %s", r, log(r))
                        .isTrue();
            }
            String frozen = log(2);
            assertThat(processes.get(2).exitValue()).as(frozen).isEqualTo(1);
            assertThat(frozen).containsPattern("rocket: error: rank 2 was excluded from the cluster \\(it did not "
                    + "answer for [0-9]+ s\\); rank 0 finishes the job without it");
            assertThat(processes.get(1).exitValue()).as(log(1)).isZero();
            assertThat(processes.get(0).exitValue()).as(log(0)).isZero();
            assertThat(log(0)).contains("verified: all 44850 pairs once, values correct")
                    .containsPattern("rocket: lost rank 2; [0-9,]+ pairs recomputed; all 44,850 pairs done");
        } finally {
            stopAll(processes);
        }
    }

    @Test
    @Timeout(240)
    void rankZeroFrozen_finishesAlone_andTheOthersLinesDoNotContradictIt() throws Exception {
        List<Process> processes = startAll(3);
        try {
            awaitRunning(0, 1000);
            freeze(processes.get(0), 10);
            for (int r = 0; r < 3; r++) {
                assertThat(processes.get(r).waitFor(150, TimeUnit.SECONDS)).as("rank %d ended: %s", r, log(r))
                        .isTrue();
            }
            assertThat(processes.get(0).exitValue()).as(log(0)).isZero();
            assertThat(log(0)).contains("verified: all 44850 pairs once, values correct");
            for (int r = 1; r < 3; r++) {
                String log = log(r);
                assertThat(processes.get(r).exitValue()).as(log).isEqualTo(1);
                assertThat(log).contains("rocket: error: rank " + r + " lost rank 0 (")
                        .contains("the job's outcome is rank 0's: see its log")
                        .doesNotContain("Run the same command with --resume");
            }
        } finally {
            stopAll(processes);
        }
    }
}
