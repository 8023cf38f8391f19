package io.rocket.apps.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocket.apps.Cli;
import io.rocket.apps.Launcher;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real runs, their report, and the report rendered by headless Chromium: every plot drawn (or, where the run has
 * nothing to show, a note saying so), no script error, the controls working (the page's #selftest), one node lane
 * per node. Skipped where no Chromium is installed.
 */
class ReportBrowserTest {

    private static Chromium chromium;

    @TempDir
    Path dir;

    @BeforeAll
    static void findChromium() {
        chromium = Chromium.find().orElse(null);
    }

    @BeforeEach
    void needsChromium() {
        Assumptions.assumeTrue(chromium != null, Chromium.INSTALL_HINT);
    }

    private String render(Path html) throws Exception {
        Path shots = Path.of("target", "report-screenshots");
        Files.createDirectories(shots);
        String dom = chromium.dumpDom(html, "selftest", Files.createDirectories(dir.resolve("chromium")),
                shots.resolve(html.getFileName().toString().replace(".html", ".png")).toAbsolutePath());
        Map<String, String> body = Chromium.attributes(dom, "body");
        assertThat(body).as(dom.substring(0, Math.min(dom.length(), 2000))).doesNotContainKey("data-js-error");
        assertThat(body).containsEntry("data-report-state", "done").containsEntry("data-selftest", "ok");
        assertThat(Chromium.attributes(dom, "html")).doesNotContainKey("data-js-error");
        return dom;
    }

    @Test
    @Timeout(120)
    void singleNodeRun_reportDrawsEveryPlotItHasDataFor() throws Exception {
        Path trace = dir.resolve("trace.json.gz");
        Path summary = dir.resolve("summary.json");
        Cli.Result run = Cli.run("synthetic", "--items", "80", "--item-bytes", "1024", "--device", "sim:2",
                "--load-ms", "0.2", "--preprocess-ms", "0.1", "--compare-ms", "0.3", "--seed", "4",
                "--trace", trace.toString(), "--summary-json", summary.toString());
        assertThat(run.code()).as(run.both()).isZero();
        Path html = dir.resolve("single.html");
        Cli.Result report = Cli.run("report", "--trace", trace.toString(), "--summary", summary.toString(),
                "--output", html.toString());
        assertThat(report.code()).as(report.both()).isZero();

        String dom = render(html);
        Map<String, String> body = Chromium.attributes(dom, "body");
        assertThat(body).containsEntry("data-node-lanes", "1").containsEntry("data-plots-drawn", "4")
                .containsEntry("data-plots-empty", "2");
        for (String id : List.of("timeline", "busy", "throughput", "cache")) {
            Map<String, String> plot = Chromium.plot(dom, id);
            assertThat(plot).as(id).containsEntry("data-state", "drawn");
            assertThat(Integer.parseInt(plot.get("data-points"))).as(id + " points").isPositive();
            assertThat(Integer.parseInt(plot.get("data-png-bytes"))).as(id + " PNG").isGreaterThan(1000);
        }
        assertThat(Chromium.plot(dom, "timeline")).containsEntry("data-lanes", "1");
        assertThat(Chromium.plot(dom, "busy").get("data-points")).isEqualTo("5"); // io, cpu, h2d, d2h, kernel
        // two devices, 200 bins each
        assertThat(Chromium.plot(dom, "throughput").get("data-points")).isEqualTo("400");
        assertThat(Chromium.plot(dom, "cache").get("data-points")).isEqualTo("2"); // L1 and L2
        assertThat(Chromium.plot(dom, "hops")).containsEntry("data-state", "empty");
        assertThat(Chromium.plot(dom, "steals")).containsEntry("data-state", "empty");
        assertThat(dom).contains("Single-node run: there is no distributed cache");
        JsonNode s = new ObjectMapper().readTree(summary.toFile());
        assertThat(Chromium.attributes(dom, "div[^>]*data-key=\"R\"")).containsEntry("data-value",
                String.format(java.util.Locale.ROOT, "%.2f", s.get("R").asDouble()));
        assertThat(Chromium.attributes(dom, "div[^>]*data-key=\"pairs\"")).containsEntry("data-value", "3,160");
    }

    @Test
    @Timeout(120)
    void traceOnly_noSummary_estimatesAndSaysSo() throws Exception {
        Path trace = dir.resolve("t.json");
        Cli.Result run = Cli.run("synthetic", "--items", "40", "--item-bytes", "256", "--compare-ms", "0.2",
                "--trace", trace.toString());
        assertThat(run.code()).as(run.both()).isZero();
        Path html = dir.resolve("trace-only.html");
        assertThat(Cli.run("report", "--trace", trace.toString(), "-o", html.toString()).code()).isZero();
        String dom = render(html);
        assertThat(Chromium.attributes(dom, "section[^>]*id=\"headline\"")).containsEntry("data-source", "trace");
        assertThat(Chromium.attributes(dom, "body")).containsEntry("data-plots-drawn", "4");
        assertThat(dom).contains("No run summary given").contains("pass it with --summary");
    }

    @Test
    @Timeout(180)
    void fourNodeClusterRun_fourTraces_fourNodeLanes() throws Exception {
        int nodes = 4;
        String hosts = hosts(nodes);
        Path trace = dir.resolve("cluster.json");
        Path summary = dir.resolve("cluster-summary.json");
        String[] app = {"synthetic", "--items", "100", "--item-bytes", "256", "--compare-ms", "0.5", "--seed", "5",
                "--device", "cpu", "--host-threads", "1", "--tile-size", "8", "--host-cache-size", "30slots", "--trace", trace.toString()};
        List<Process> processes = new ArrayList<>();
        for (int r = 0; r < nodes; r++) {
            processes.add(start(app, nodes, r, hosts, r == 0 ? List.of("--summary-json", summary.toString())
                    : List.of()));
        }
        for (int r = 0; r < nodes; r++) {
            Process p = processes.get(r);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("rank %d finished", r).isTrue();
            assertThat(p.exitValue()).as("rank %d: %s", r, Files.readString(dir.resolve("rank-" + r + ".log")))
                    .isZero();
        }
        List<Path> traces = List.of(trace, dir.resolve("cluster.rank1.json"), dir.resolve("cluster.rank2.json"),
                dir.resolve("cluster.rank3.json"));
        for (Path t : traces) {
            assertThat(t).exists();
        }
        Path html = dir.resolve("cluster.html");
        List<String> args = new ArrayList<>(List.of("report", "--trace"));
        traces.forEach(t -> args.add(t.toString()));
        args.addAll(List.of("--summary", summary.toString(), "-o", html.toString()));
        Cli.Result report = Cli.run(args.toArray(String[]::new));
        assertThat(report.code()).as(report.both()).isZero();
        assertThat(report.out()).contains("4 nodes");

        String dom = render(html);
        Map<String, String> body = Chromium.attributes(dom, "body");
        assertThat(body).containsEntry("data-node-lanes", "4").containsEntry("data-plots-drawn", "6")
                .containsEntry("data-plots-empty", "0");
        assertThat(Chromium.plot(dom, "timeline")).containsEntry("data-lanes", "4");
        assertThat(Chromium.plot(dom, "throughput").get("data-points")).isEqualTo("800"); // 4 devices x 200 bins
        assertThat(Chromium.plot(dom, "cache").get("data-points")).isEqualTo("3"); // L1, L2, L3
        assertThat(Integer.parseInt(Chromium.plot(dom, "hops").get("data-points"))).isPositive();
        assertThat(Chromium.plot(dom, "steals").get("data-points")).isEqualTo("16"); // 4 nodes x 4 bars
        assertThat(dom).contains("rank 3 synthetic").doesNotContain("The summary describes");
    }

    private Process start(String[] app, int nodes, int rank, String hosts, List<String> extra) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx192m", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), Launcher.class.getName()));
        cmd.addAll(List.of(app));
        cmd.addAll(List.of("--nodes", "" + nodes, "--rank", "" + rank, "--hosts", hosts));
        cmd.addAll(extra);
        return new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("rank-" + rank + ".log").toFile()).start();
    }

    /** 127.0.0.1 with a block of free ports, one per node. */
    private static String hosts(int nodes) throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int base;
            try (ServerSocket s = new ServerSocket(0)) {
                base = s.getLocalPort();
            }
            if (base + nodes > 65000) {
                continue;
            }
            boolean free = true;
            for (int k = 1; k < nodes && free; k++) {
                try (ServerSocket s = new ServerSocket(base + k)) {
                    free = s.isBound();
                } catch (IOException e) {
                    free = false;
                }
            }
            if (free) {
                StringBuilder h = new StringBuilder();
                for (int r = 0; r < nodes; r++) {
                    h.append(r == 0 ? "" : ",").append("127.0.0.1:").append(base + r);
                }
                return h.toString();
            }
        }
        throw new IOException("no free block of " + nodes + " ports");
    }
}
