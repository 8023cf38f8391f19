package io.rocket.apps.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocket.apps.Launcher;
import io.rocket.cluster.ClusterSecurity;
import io.rocket.runtime.status.StatusToken;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The live status of real cluster runs (JVM processes over TCP on 127.0.0.1): {@code /status} and {@code /metrics}
 * while the run goes on, a rank killed and reported lost, the final status after the end, {@code rocket status}
 * on a running and a finished job, a wrong token refused; and a run killed with -9 rebuilt from its event log.
 */
class LiveStatusProcessTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Process start(String[] app, int nodes, int rank, String hosts, List<String> extra) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                Launcher.class.getName()));
        cmd.addAll(List.of(app));
        if (nodes > 1) {
            cmd.addAll(List.of("--nodes", "" + nodes, "--rank", "" + rank, "--hosts", hosts));
        }
        cmd.addAll(extra);
        return new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("rank-" + rank + ".log").toFile()).start();
    }

    private static HttpResponse<String> get(String url, String token) throws IOException, InterruptedException {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url));
        if (token != null) {
            r.header("Authorization", "Bearer " + token);
        }
        return HttpClient.newHttpClient().send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String awaitFile(Path file, Process owner) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!Files.isRegularFile(file) && owner.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(file).as("written by the run").isRegularFile();
        return Files.readString(file).trim();
    }

    private static String rocket(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Launcher.execute(args, new PrintWriter(out), new PrintWriter(err));
        return code + "\n" + out + err;
    }

    @Test
    @Timeout(240)
    void threeNodes_statusAndMetricsWhileRunning_lostRankReported_finalStateAfterTheEnd() throws Exception {
        Path secret = dir.resolve("secret");
        Files.writeString(secret, "a test secret of enough bytes");
        String token = StatusToken.of(ClusterSecurity.fromFile(secret, false)).text();
        int nodes = 3;
        String hosts = ProcessClusterTest.hosts(nodes);
        String[] app = {"synthetic", "--items", "300", "--item-bytes", "64", "--compare-ms", "1", "--seed", "5",
                "--device", "sim:2", "--host-threads", "1", "--tile-size", "8", "--cluster-secret-file",
                secret.toString()};
        Path statusDir = dir.resolve("status");
        List<Process> processes = new ArrayList<>();
        for (int r = 0; r < nodes; r++) {
            processes.add(start(app, nodes, r, hosts, r == 0 ? List.of("--status-port", "0", "--status-dir",
                    statusDir.toString()) : List.of()));
        }
        String url = awaitFile(statusDir.resolve("status.url"), processes.get(0));
        assertThat(url).startsWith("http://127.0.0.1:");
        assertThat(get(url + "status", null).statusCode()).isEqualTo(401);
        assertThat(get(url + "status", token.substring(1) + "A").statusCode()).isEqualTo(401);
        assertThat(rocket("status", statusDir.toString())).startsWith("1\n").contains("refused");

        long lastDone = -1;
        int readsWithEveryRankRunning = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (readsWithEveryRankRunning < 3 && System.nanoTime() < deadline) {
            HttpResponse<String> answer = get(url + "status", token);
            if (answer.statusCode() == 503) { // the endpoint opens before the nodes join; the run is starting
                Thread.sleep(200);
                continue;
            }
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            JsonNode s = JSON.readTree(answer.body());
            long done = s.path("pairs_done").asLong();
            assertThat(done).as("pairs done never go back").isGreaterThanOrEqualTo(lastDone);
            lastDone = done;
            assertThat(s.path("nodes")).hasSize(nodes);
            for (int r = 0; r < nodes; r++) {
                assertThat(s.path("nodes").get(r).path("rank").asInt()).isEqualTo(r);
            }
            boolean allRunning = true;
            for (JsonNode n : s.path("nodes")) {
                allRunning &= n.path("state").asText().equals("running") && n.path("pairs_done").asLong() > 0;
            }
            if (allRunning && done > 0) {
                assertThat(s.path("eta_seconds").isNumber()).as(s.toString()).isTrue();
                assertThat(s.path("bad_item_loads").asLong()).isZero();
                for (JsonNode n : s.path("nodes")) { // per thread over the node's time: a fraction, whatever the threads
                    n.path("busy_fraction").forEach(f -> assertThat(f.asDouble()).isBetween(0.0, 1.0));
                    assertThat(n.path("busy_fraction").path("kernel").asDouble()).as(n.toString()).isPositive();
                }
                assertThat(s.path("eta_seconds").asDouble()).isFinite().isGreaterThanOrEqualTo(0);
                Map<String, Double> metrics = PrometheusGrammar.parse(get(url + "metrics", token).body());
                assertThat(metrics).containsKey("rocket_job_pairs_done_total")
                        .containsKey("rocket_node_up{rank=\"2\",host=\"" + s.path("nodes").get(2).path("host")
                                .asText() + "\"}");
                assertThat(metrics.get("rocket_job_pairs")).isEqualTo(300.0 * 299 / 2);
                readsWithEveryRankRunning++;
            }
            Thread.sleep(700);
        }
        assertThat(readsWithEveryRankRunning).as("reads while every rank ran").isEqualTo(3);
        assertThat(rocket("status", statusDir.toString(), "--cluster-secret-file", secret.toString()))
                .startsWith("0\n").contains("synthetic on 3 nodes: running");

        processes.get(2).destroyForcibly().waitFor(); // kill -9
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        JsonNode s = null;
        while (System.nanoTime() < deadline && processes.get(0).isAlive()) {
            s = JSON.readTree(get(url + "status", token).body());
            if (s.path("lost_ranks").toString().equals("[2]")) {
                break;
            }
            Thread.sleep(300);
        }
        assertThat(s).isNotNull();
        assertThat(s.path("lost_ranks").toString()).as(s.toString()).isEqualTo("[2]");
        assertThat(s.path("nodes").get(2).path("state").asText()).isEqualTo("lost");
        assertThat(PrometheusGrammar.parse(get(url + "metrics", token).body()))
                .containsEntry("rocket_job_lost_nodes", 1.0);

        for (int r : new int[]{0, 1}) {
            assertThat(processes.get(r).waitFor(120, TimeUnit.SECONDS)).as("rank %d ended", r).isTrue();
            assertThat(processes.get(r).exitValue()).as(Files.readString(dir.resolve("rank-" + r + ".log"))).isZero();
        }
        String finished = rocket("status", statusDir.toString(), "--json");
        assertThat(finished).startsWith("0\n");
        JsonNode end = JSON.readTree(finished.substring(2));
        assertThat(end.path("job").path("state").asText()).isEqualTo("done");
        assertThat(end.path("pairs_done").asLong()).isEqualTo(300L * 299 / 2);
        assertThat(end.path("lost_ranks").toString()).isEqualTo("[2]");
        assertThat(end.path("nodes").get(1).path("state").asText()).isEqualTo("done");
    }

    @Test
    @Timeout(180)
    void runKilledAtHalf_reportFromItsEventLog_showsThePartThatRan() throws Exception {
        Path log = dir.resolve("events.jsonl");
        String[] app = {"synthetic", "--items", "300", "--item-bytes", "64", "--compare-ms", "1", "--seed", "6",
                "--device", "sim:2", "--host-threads", "1", "--tile-size", "8"};
        Process run = start(app, 1, 0, null, List.of("--event-log", log.toString(), "--status-dir",
                dir.resolve("status").toString()));
        long total = 300L * 299 / 2;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        long done = 0;
        while (done < total / 2 && run.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(200);
            List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
            if (!lines.isEmpty()) {
                done = JSON.readTree(lines.get(lines.size() - 1)).path("pairs_done").asLong();
            }
        }
        assertThat(run.isAlive()).as("still running at half").isTrue();
        run.destroyForcibly().waitFor(); // kill -9: no end is written
        Path page = dir.resolve("report.html");
        String out = rocket("report", "--event-log", log.toString(), "-o", page.toString());
        assertThat(out).startsWith("0\n").contains("stopped");
        String html = Files.readString(page);
        JsonNode embedded = JSON.readTree(html.substring(html.indexOf("application/json\">") + 18,
                html.indexOf("</script>", html.indexOf("application/json\">"))));
        assertThat(embedded.path("job").path("state").asText()).isEqualTo("stopped");
        assertThat(embedded.path("pairs_done").asLong()).isBetween(total / 2, total - 1);
        assertThat(embedded.path("history").size()).isGreaterThan(1);
        assertThat(html).contains("Pairs per second per node");
    }
}
