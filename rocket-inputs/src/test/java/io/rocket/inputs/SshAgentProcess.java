package io.rocket.inputs;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** OpenSSH's ssh-agent on a socket in a test directory; tests that need it are skipped where it is not installed. */
final class SshAgentProcess implements AutoCloseable {

    private final Process process;
    private final Path socket;

    private SshAgentProcess(Process process, Path socket) {
        this.process = process;
        this.socket = socket;
    }

    static SshAgentProcess startOrSkip(Path dir) throws IOException, InterruptedException {
        assumeTrue(onPath("ssh-agent") && onPath("ssh-add"), "OpenSSH's ssh-agent and ssh-add are not installed");
        Path socket = dir.resolve("agent.sock");
        Process p = new ProcessBuilder("ssh-agent", "-D", "-a", socket.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("agent.log").toFile()).start();
        for (int i = 0; i < 100 && !Files.exists(socket); i++) {
            Thread.sleep(20);
        }
        assumeTrue(Files.exists(socket), "ssh-agent did not start");
        return new SshAgentProcess(p, socket);
    }

    Path socket() {
        return socket;
    }

    void add(Path key) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("ssh-add", key.toString()).redirectErrorStream(true);
        pb.environment().put("SSH_AUTH_SOCK", socket.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("ssh-add failed: " + out);
        }
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor(5, TimeUnit.SECONDS);
    }
}
