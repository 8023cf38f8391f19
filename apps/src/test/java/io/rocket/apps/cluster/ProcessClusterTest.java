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

    private static int freePortBlock(int count) throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int base;
            try (ServerSocket s = new ServerSocket(0)) {
                base = s.getLocalPort();
            }
            if (base + count > 65000) {
                continue;
            }
            boolean free = true;
            for (int k = 1; k < count && free; k++) {
                try (ServerSocket s = new ServerSocket(base + k)) {
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

    private static List<String> sorted(Path tsv) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(tsv));
        lines.sort(null);
        return lines;
    }

    @Test
    @Timeout(180)
    void threeProcesses_sameSortedOutputAsOneNode() throws Exception {
        int nodes = 3;
        int base = freePortBlock(nodes);
        StringBuilder hosts = new StringBuilder();
        for (int r = 0; r < nodes; r++) {
            hosts.append(r == 0 ? "" : ",").append("127.0.0.1:").append(base + r);
        }
        String[] app = {"synthetic", "--items", "70", "--item-bytes", "256", "--compare-ms", "0.05", "--seed", "21",
                "--host-cache-size", "12slots", "--host-threads", "1", "--tile-size", "8"};
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> processes = new ArrayList<>();
        for (int r = 0; r < nodes; r++) {
            List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                    Launcher.class.getName()));
            cmd.addAll(List.of(app));
            cmd.addAll(List.of("--nodes", "" + nodes, "--rank", "" + r, "--hosts", hosts.toString()));
            if (r == 0) {
                cmd.addAll(List.of("--output", dir.resolve("cluster.tsv").toString(),
                        "--summary-json", dir.resolve("cluster.json").toString()));
            }
            processes.add(new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("rank-" + r + ".log").toFile()).start());
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
