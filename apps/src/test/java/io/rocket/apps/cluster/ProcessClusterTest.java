package io.rocket.apps.cluster;

import io.rocket.apps.Launcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Real JVM processes forming a cluster over TCP on 127.0.0.1, compared with a single-node run. */
class ProcessClusterTest {

    @TempDir
    Path dir;

    /**
     * A block of {@code count} consecutive free ports below Linux's ephemeral range (32768 and up). A block taken
     * from the ephemeral range (a port the kernel just chose) can be handed to another process's outgoing connection
     * before the node binds it; below that range only listeners compete, and the random base keeps concurrent
     * test runs apart.
     */
    static int freePortBlock(int count) throws IOException {
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 200; attempt++) {
            int base = 20_000 + random.nextInt(12_000 - count);
            boolean free = true;
            for (int k = 0; k < count && free; k++) {
                try (ServerSocket s = new ServerSocket(base + k, 1, java.net.InetAddress.getLoopbackAddress())) {
                    free = s.isBound();
                } catch (IOException e) {
                    free = false;
                }
            }
            if (free) {
                return base;
            }
        }
        throw new IOException("no free block of " + count + " ports");
    }

    static List<String> sorted(Path tsv) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(tsv));
        lines.sort(null);
        return lines;
    }

    static String hosts(int nodes) throws IOException {
        int base = freePortBlock(nodes);
        StringBuilder hosts = new StringBuilder();
        for (int r = 0; r < nodes; r++) {
            hosts.append(r == 0 ? "" : ",").append("127.0.0.1:").append(base + r);
        }
        return hosts.toString();
    }

    private Process start(String[] app, int nodes, int rank, String hosts, String... extra) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                Launcher.class.getName()));
        cmd.addAll(List.of(app));
        cmd.addAll(List.of("--nodes", "" + nodes, "--rank", "" + rank, "--hosts", hosts));
        cmd.addAll(List.of(extra));
        ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("rank-" + rank + ".log").toFile());
        builder.environment().put("ROCKET_LOG_LEVEL", "INFO"); // the test watches for the start of the run
        return builder.start();
    }

    /** Waits until rank {@code r}'s log says the run started, plus {@code millis}. */
    private void awaitRunning(int r, long millis) throws Exception {
        Path log = dir.resolve("rank-" + r + ".log");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline && !Files.readString(log).contains("run starts")) {
            Thread.sleep(100);
        }
        assertThat(Files.readString(log)).contains("run starts");
        Thread.sleep(millis);
    }

    @Test
    @Timeout(180)
    void nodeKilledMidRun_survivorsFinish_everyPairOnceWithRightValue() throws Exception {
        int nodes = 4;
        String hosts = hosts(nodes);
        String[] app = {"synthetic", "--items", "200", "--item-bytes", "64", "--compare-ms", "1", "--seed", "2",
                "--host-threads", "1", "--tile-size", "8", "--verify"};
        List<Process> processes = new ArrayList<>();
        for (int r = 0; r < nodes; r++) {
            processes.add(r == 0 ? start(app, nodes, r, hosts, "--summary-json", dir.resolve("s.json").toString())
                    : start(app, nodes, r, hosts));
        }
        awaitRunning(2, 1500);
        assertThat(processes.get(2).isAlive()).as("rank 2 still running when killed").isTrue();
        processes.get(2).destroyForcibly().waitFor(); // kill -9
        for (int r : new int[]{0, 1, 3}) {
            Process p = processes.get(r);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("rank %d ended", r).isTrue();
            String log = Files.readString(dir.resolve("rank-" + r + ".log"));
            assertThat(p.exitValue()).as(log).isZero();
        }
        assertThat(Files.readString(dir.resolve("rank-0.log")))
                .contains("verified: all 19900 pairs once, values correct")
                .containsPattern("rocket: lost rank 2; [0-9,]+ pairs recomputed; all 19,900 pairs done");
        String summary = Files.readString(dir.resolve("s.json"));
        assertThat(summary).contains("\"lost_nodes\" : 1").contains("\"recomputed_pairs\"")
                .containsPattern("\"lost_ranks\" : \\[ 2 \\]");
    }

    @Test
    @Timeout(180)
    void rankZeroKilled_othersStopWithClearMessage_insteadOfHanging() throws Exception {
        int nodes = 3;
        String hosts = hosts(nodes);
        String[] app = {"synthetic", "--items", "300", "--item-bytes", "64", "--compare-ms", "1", "--seed", "2",
                "--host-threads", "1", "--tile-size", "8"};
        List<Process> processes = new ArrayList<>();
        for (int r = 0; r < nodes; r++) {
            processes.add(start(app, nodes, r, hosts));
        }
        awaitRunning(0, 1000);
        processes.get(0).destroyForcibly().waitFor();
        for (int r = 1; r < nodes; r++) {
            Process p = processes.get(r);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("rank %d ended", r).isTrue();
            String log = Files.readString(dir.resolve("rank-" + r + ".log"));
            assertThat(p.exitValue()).as(log).isNotZero();
            assertThat(log).contains("rank " + r + " lost rank 0").contains("the job's outcome is rank 0's")
                    .contains("--resume");
        }
    }

    @Test
    @Timeout(120)
    void nodeWithOtherStartMode_isRefusedAtJoin() throws Exception {
        String hosts = hosts(2);
        String[] app = {"synthetic", "--items", "20", "--seed", "3", "--host-threads", "1"};
        Process rank0 = start(app, 2, 0, hosts);
        Process rank1 = start(app, 2, 1, hosts, "--no-partitioned-start");
        for (Process p : List.of(rank0, rank1)) {
            assertThat(p.waitFor(90, TimeUnit.SECONDS)).isTrue();
        }
        String log1 = Files.readString(dir.resolve("rank-1.log"));
        assertThat(rank1.exitValue()).as(log1).isNotZero();
        assertThat(log1).contains("different item list or options than rank 0");
    }

    @Test
    @Timeout(180)
    void threeProcesses_sameSortedOutputAsOneNode() throws Exception {
        int nodes = 3;
        String hosts = hosts(nodes);
        String[] app = {"synthetic", "--items", "70", "--item-bytes", "256", "--compare-ms", "0.05", "--seed", "21",
                "--host-cache-size", "12slots", "--host-threads", "1", "--tile-size", "8"};
        List<Process> processes = new ArrayList<>();
        for (int r = 0; r < nodes; r++) {
            processes.add(r == 0 ? start(app, nodes, r, hosts, "--output", dir.resolve("cluster.tsv").toString(),
                    "--summary-json", dir.resolve("cluster.json").toString()) : start(app, nodes, r, hosts));
        }
        for (int r = 0; r < nodes; r++) {
            Process p = processes.get(r);
            assertThat(p.waitFor(150, TimeUnit.SECONDS)).as("rank %d finished", r).isTrue();
            assertThat(p.exitValue()).as("rank %d: %s", r, Files.readString(dir.resolve("rank-" + r + ".log")))
                    .isZero();
        }
        List<String> single = new ArrayList<>(List.of(app));
        single.addAll(List.of("--output", dir.resolve("single.tsv").toString()));
        int code = Launcher.execute(single.toArray(String[]::new), new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()));
        assertThat(code).isZero();
        assertThat(sorted(dir.resolve("cluster.tsv"))).hasSize(70 * 69 / 2 + 1)
                .isEqualTo(sorted(dir.resolve("single.tsv")));
        String summary = Files.readString(dir.resolve("cluster.json"));
        assertThat(summary).contains("\"nodes\"").contains("\"l3_requests\"").contains("\"rank\" : 2");
    }
}
