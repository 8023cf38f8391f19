package io.rocket.apps.cluster;

import io.rocket.apps.Launcher;
import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.testkit.SyntheticCheck;
import io.rocket.core.CacheSize;
import io.rocket.core.ResultSink;
import io.rocket.core.summary.RunSummary;
import io.rocket.runtime.RocketOptions;
import io.rocket.cluster.ClusterOptions;
import io.rocket.runtime.ClusterRun;
import io.rocket.cluster.ClusterSecurity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whole cluster runs over TCP on 127.0.0.1 (two nodes in this JVM) under attack: while the run is under way, nodes
 * with a wrong secret or none try to join through the command line and are refused with one line saying
 * authentication failed, and raw sockets send random bytes to every port the nodes listen on (control, failure
 * detection, data plane). The run must still deliver every pair once with the right value, with encryption, and in
 * an open cluster too (minus the intruders, whom an open cluster admits by design).
 */
class ClusterSecurityTest {

    static {
        System.setProperty("java.net.preferIPv4Stack", "true");
    }

    @TempDir
    Path dir;

    private static int freePort() throws IOException {
        return ProcessClusterTest.freePortBlock(1);
    }

    private Path secretFile(String name, String content) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    @Test
    @Timeout(120)
    void encryptedCluster_refusesIntruders_dropsGarbage_andDeliversEveryPair() throws Exception {
        Path secret = secretFile("secret", "0123456789abcdef0123456789abcdef\n");
        Path wrong = secretFile("wrong", "0123456789abcdef0123456789abcdeX\n");
        runUnderAttack(ClusterSecurity.fromFile(secret, true), hosts -> {
            List<String> errors = new ArrayList<>();
            errors.add(intrude(hosts, "--cluster-secret-file", wrong.toString(), "--cluster-encrypt"));
            errors.add(intrude(hosts)); // no secret at all
            errors.add(intrude(hosts, "--cluster-secret-file", secret.toString())); // the secret, but unencrypted
            return errors;
        });
    }

    @Test
    @Timeout(120)
    void openCluster_dropsGarbage_andDeliversEveryPair() throws Exception {
        runUnderAttack(ClusterSecurity.NONE, hosts -> List.of());
    }

    /** What to do to the running cluster; returns the intruders' error output. */
    private interface Attack {
        List<String> run(String hosts) throws Exception;
    }

    private void runUnderAttack(ClusterSecurity security, Attack attack) throws Exception {
        int n = 60;
        int p0 = freePort();
        int p1 = freePort();
        List<InetSocketAddress> hosts = List.of(new InetSocketAddress("127.0.0.1", p0),
                new InetSocketAddress("127.0.0.1", p1));
        SyntheticCheck check = new SyntheticCheck(5, n, true);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch attacked = new CountDownLatch(1);
        // Rank 0 holds its first result until the attack is over, so the run is surely under way during it.
        ResultSink<Integer, Long> gate = new ResultSink<>() {
            @Override
            public void accept(int i, int j, Integer left, Integer right, Long result) {
                hold();
                check.accept(i, j, left, right, result);
            }

            @Override
            public void failed(int i, int j, Integer left, Integer right, Throwable error) {
                hold();
                check.failed(i, j, left, right, error);
            }

            private void hold() {
                running.countDown();
                try {
                    attacked.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        RocketOptions options = RocketOptions.defaults().withThreads(1, 1).withTileSize(8)
                .withCaches(new CacheSize(-1, 20), new CacheSize(-1, 10));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        Set<Integer> portsBefore = listeningPorts();
        try {
            List<Future<RunSummary>> nodes = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                SyntheticApp app = new SyntheticApp(new SyntheticApp.Config(n, 4096, Cost.ZERO, Cost.ZERO,
                        Cost.parse("0.2"), 5));
                ClusterOptions cluster = ClusterOptions.builder(r, 2).hosts(hosts).joinTimeout(Duration.ofSeconds(30))
                        .l3Timeout(Duration.ofSeconds(2)).failureTimeout(Duration.ofSeconds(5)).security(security)
                        .build();
                ResultSink<Integer, Long> sink = r == 0 ? gate : check;
                nodes.add(pool.submit(() -> ClusterRun.run(app, app.keys(), options, cluster, sink)));
            }
            assertThat(running.await(60, TimeUnit.SECONDS)).as("the run started").isTrue();
            List<String> refusals;
            try {
                // An intruder lists every member, so its discovery finds whichever of them coordinates.
                refusals = attack.run("127.0.0.1:" + p0 + ",127.0.0.1:" + p1 + ",127.0.0.1:" + freePort());
                Set<Integer> ports = listeningPorts();
                ports.removeAll(portsBefore);
                garbage(ports);
                assertThat(ports).as("the nodes' ports: control, failure detection, data plane (2 each)")
                        .hasSizeGreaterThanOrEqualTo(listeningPortsVisible() ? 6 : 0);
            } finally {
                attacked.countDown();
            }
            RunSummary rank0 = nodes.get(0).get(90, TimeUnit.SECONDS);
            nodes.get(1).get(90, TimeUnit.SECONDS);
            assertThat(check.problem()).isNull();
            assertThat(rank0.pairs).isEqualTo(n * (n - 1) / 2);
            for (int k = 0; k < refusals.size(); k++) {
                String err = refusals.get(k);
                assertThat(err).as("intruder %d", k).startsWith("rocket: error: cluster: authentication failed: ")
                        .satisfies(e -> assertThat(e.strip().lines().filter(l -> l.startsWith("rocket: error")))
                                .hasSize(1));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Runs a node through the command line that tries to join as a third rank; returns its error line. On a loaded
     * machine the members may not answer its discovery in time, and it then starts a cluster of its own instead of
     * asking to join: that attempt proves nothing, so it tries again.
     */
    private static String intrude(String hosts, String... security) {
        String line = "";
        for (int attempt = 0; attempt < 3; attempt++) {
            List<String> args = new ArrayList<>(List.of("synthetic", "--items", "60", "--host-threads", "1",
                    "--nodes", "3", "--rank", "2", "--hosts", hosts, "--join-timeout", "3"));
            args.addAll(List.of(security));
            StringWriter err = new StringWriter();
            int code = Launcher.execute(args.toArray(String[]::new), new PrintWriter(new StringWriter()),
                    new PrintWriter(err, true));
            assertThat(code).as(err.toString()).isEqualTo(1);
            line = err.toString().lines().filter(l -> l.startsWith("rocket: error")).findFirst()
                    .orElse(err.toString());
            if (!line.contains("nodes joined within")) {
                break;
            }
        }
        return line;
    }

    /** Random bytes, and random bytes after a plausible start, to each port, a few times each. */
    private static void garbage(Set<Integer> ports) {
        Random random = new Random(3);
        byte[][] starts = {{}, {'b', 'e', 'l', 'a'}, {'R', 'K', 'D', 'P', 1}};
        for (int port : ports) {
            for (int k = 0; k < 6; k++) {
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                    s.setSoTimeout(300);
                    byte[] junk = new byte[64 + random.nextInt(4000)];
                    random.nextBytes(junk);
                    byte[] start = starts[k % starts.length];
                    System.arraycopy(start, 0, junk, 0, start.length);
                    OutputStream out = s.getOutputStream();
                    out.write(junk);
                    out.flush();
                    s.getInputStream().read(); // give the node a moment to react before we hang up
                } catch (IOException e) {
                    // refused, reset or timed out: all fine
                }
            }
        }
    }

    private static boolean listeningPortsVisible() {
        return Files.isReadable(Path.of("/proc/net/tcp")) && Files.isDirectory(Path.of("/proc/self/fd"));
    }

    /** The TCP ports this JVM listens on (Linux: its socket inodes matched with /proc/net/tcp*); empty elsewhere. */
    private static Set<Integer> listeningPorts() throws IOException {
        Set<Integer> ports = new TreeSet<>();
        if (!listeningPortsVisible()) {
            return ports;
        }
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path path = Path.of(table);
            if (!Files.isReadable(path)) {
                continue;
            }
            for (String line : Files.readAllLines(path)) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[3].equals("0A") && inodes.contains(f[9])) { // 0A: LISTEN
                    String local = f[1];
                    ports.add(Integer.parseInt(local.substring(local.lastIndexOf(':') + 1), 16));
                }
            }
        }
        return ports;
    }
}
