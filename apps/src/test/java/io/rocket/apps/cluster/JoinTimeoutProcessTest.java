package io.rocket.apps.cluster;

import io.rocket.apps.Launcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cluster that cannot form says so and ends: three real JVMs of a four-node job (rank 3 never starts), with a
 * cluster secret and a short {@code --join-timeout}, each exit 1 within the join timeout plus 10 s with one error line
 * naming the missing rank; rank 0 shows what it waits for, never a pair count.
 */
class JoinTimeoutProcessTest {
    private static final int JOIN_TIMEOUT_SECONDS = 5;

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void threeOfFourRanks_everyNodeExitsOneNamingTheMissingRank_withinTheJoinTimeout() throws Exception {
        String hosts = ProcessClusterTest.hosts(4);
        Path secret = dir.resolve("secret");
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        Files.write(secret, bytes);
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        List<Process> processes = new ArrayList<>();
        long began = System.nanoTime();
        for (int r = 0; r < 3; r++) {
            processes.add(start(r, hosts, secret));
        }
        for (int r = 0; r < 3; r++) {
            Process p = processes.get(r);
            // The spec's bound: the join timeout, plus 10 s for the JVM to start and stop.
            long left = began + TimeUnit.SECONDS.toNanos(JOIN_TIMEOUT_SECONDS + 10) - System.nanoTime();
            assertThat(p.waitFor(Math.max(0, left), TimeUnit.NANOSECONDS)).as("rank %d ended in time", r).isTrue();
            String log = Files.readString(dir.resolve("rank-" + r + ".log"));
            assertThat(p.exitValue()).as(log).isEqualTo(1);
            List<String> errors = log.lines().filter(l -> l.startsWith("rocket: error:")).toList();
            assertThat(errors).as(log).hasSize(1);
            assertThat(errors.get(0)).as(log)
                    .contains("the cluster did not form within " + JOIN_TIMEOUT_SECONDS + " s")
                    .containsPattern("ranks? ([0-9], )*3 (is|are) missing")
                    .contains("(last: ");
        }
        String rank0 = Files.readString(dir.resolve("rank-0.log"));
        assertThat(rank0).contains("waiting for ").contains(" to join (").doesNotContain(" pairs (");
    }

    private Process start(int rank, String hosts, Path secret) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                Launcher.class.getName(), "synthetic", "--items", "40", "--host-threads", "1",
                "--nodes", "4", "--rank", "" + rank, "--hosts", hosts, "--cluster-secret-file", secret.toString(),
                "--join-timeout", "" + JOIN_TIMEOUT_SECONDS, "--progress-interval", "1"));
        return new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("rank-" + rank + ".log").toFile()).start();
    }
}
