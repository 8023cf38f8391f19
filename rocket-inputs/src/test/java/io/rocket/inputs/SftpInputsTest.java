package io.rocket.inputs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rocket.core.RocketException;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SftpInputsTest {

    @TempDir
    Path tmp;
    SftpServerFixture server;
    KeyPair aliceKey;

    @BeforeEach
    void start() throws Exception {
        server = new SftpServerFixture(tmp);
        aliceKey = server.writeKey("id_ed25519", null);
        server.authorized.put("alice", aliceKey.getPublic());
        server.trustServer();
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    private InputLocations locations() {
        return new InputLocations(server.settings("alice"));
    }

    private String url(String path) {
        return "sftp://127.0.0.1:" + server.port() + path;
    }

    @Test
    void listsSizesAndReadsTheSameBytesAsLocal() throws Exception {
        Path dir = Files.createDirectories(server.root.resolve("data"));
        byte[] big = new byte[300_000];
        new Random(7).nextBytes(big);
        Files.write(dir.resolve("a.bin"), big);
        Files.writeString(dir.resolve("b.txt"), "hello");

        try (InputLocations inputs = locations()) {
            Path remote = inputs.resolve(url("/data"));
            assertThat(InputLocations.scheme(remote)).isEqualTo("sftp");
            assertThat(InputLocations.isRemote(remote)).isTrue();
            assertThat(Files.isDirectory(remote)).isTrue();
            List<String> names = new ArrayList<>();
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(remote)) {
                entries.forEach(p -> names.add(p.getFileName().toString()));
            }
            assertThat(names).containsExactlyInAnyOrder("a.bin", "b.txt");

            Path a = remote.resolve("a.bin");
            assertThat(Files.size(a)).isEqualTo(big.length);
            assertThat(readAll(a)).isEqualTo(big);
            assertThat(Files.readString(inputs.resolve(url("/data/b.txt")))).isEqualTo("hello");
            assertThat(InputLocations.display(a)).isEqualTo("sftp://alice@127.0.0.1:" + server.port() + "/data/a.bin");

            // one session per user, host and port, however many paths
            inputs.resolve(url("/data/b.txt"));
            inputs.resolve("sftp://alice@127.0.0.1:" + server.port() + "/data");
            assertThat(server.server.getActiveSessions()).hasSize(1);
        }
    }

    static byte[] readAll(Path p) throws IOException {
        try (SeekableByteChannel ch = Files.newByteChannel(p)) {
            ByteBuffer buf = ByteBuffer.allocate((int) ch.size());
            while (buf.hasRemaining() && ch.read(buf) >= 0) {
                // keep reading
            }
            return buf.array();
        }
    }

    @Test
    void anInputListMixesSftpWithOtherSchemesOnOneSession() throws Exception {
        Files.writeString(server.root.resolve("x.txt"), "x");
        Files.writeString(server.root.resolve("y.txt"), "yy");
        Path list = Files.writeString(tmp.resolve("list.txt"), url("/x.txt") + "\n# remote and local\n"
                + url("/y.txt") + "\n" + tmp.resolve("local.txt") + "\n");
        try (InputLocations inputs = locations()) {
            List<Path> paths = inputs.readList(list);
            assertThat(paths).extracting(InputLocations::scheme).containsExactly("sftp", "sftp", "file");
            assertThat(Files.size(paths.get(1))).isEqualTo(2);
            assertThat(server.server.getActiveSessions()).hasSize(1);
        }
        Path bad = Files.writeString(tmp.resolve("bad.txt"), "sftp://alice:pw@127.0.0.1/x\n");
        try (InputLocations inputs = locations()) {
            assertThatThrownBy(() -> inputs.readList(bad))
                    .hasMessageStartingWith(bad + ":1: sftp://alice:***@127.0.0.1/x: passwords in sftp:// URIs");
        }
    }

    @Test
    void aKeyTheServerDoesNotAcceptIsReportedWithTheKeysTried() throws Exception {
        server.authorized.put("alice", KeyUtils.generateKeyPair("ssh-ed25519", 256).getPublic());
        try (InputLocations inputs = locations()) {
            assertThatThrownBy(() -> inputs.resolve(url("/data")))
                    .isInstanceOf(RocketException.class)
                    .hasMessageContaining(url("/data") + ": authentication refused for alice@127.0.0.1:" + server.port())
                    .hasMessageContaining("keys tried: " + server.sshDir.resolve("id_ed25519"))
                    .hasMessageNotContaining("\n");
        }
    }

    @Test
    void anEncryptedKeyIsSkippedWithANoteAndAnotherKeyStillWorks() throws Exception {
        server.writeKey("id_ecdsa", "secret");
        try (InputLocations inputs = locations()) {
            assertThat(Files.exists(inputs.resolve(url("/")))).isTrue();
        }
        server.authorized.put("alice", KeyUtils.generateKeyPair("ssh-ed25519", 256).getPublic());
        try (InputLocations inputs = locations()) {
            assertThatThrownBy(() -> inputs.resolve(url("/")))
                    .hasMessageContaining("skipped: " + server.sshDir.resolve("id_ecdsa") + " (encrypted; add it to"
                            + " ssh-agent");
        }
    }

    @Test
    void anUnknownHostIsRefused() throws Exception {
        Files.writeString(server.sshDir.resolve("known_hosts"), "");
        try (InputLocations inputs = locations()) {
            assertThatThrownBy(() -> inputs.resolve(url("/data")))
                    .isInstanceOf(RocketException.class)
                    .hasMessageContaining("host key of [127.0.0.1]:" + server.port())
                    .hasMessageContaining("is not in " + server.sshDir.resolve("known_hosts"))
                    .hasMessageNotContaining("\n");
        }
        assertThat(Files.readString(server.sshDir.resolve("known_hosts"))).isEmpty();
        Files.delete(server.sshDir.resolve("known_hosts"));
        try (InputLocations inputs = locations()) {
            assertThatThrownBy(() -> inputs.resolve(url("/data")))
                    .hasMessageContaining("cannot be checked: no " + server.sshDir.resolve("known_hosts"));
        }
        assertThat(server.sshDir.resolve("known_hosts")).doesNotExist();
    }

    @Test
    void aChangedHostKeyIsRefused() throws Exception {
        Files.writeString(server.sshDir.resolve("known_hosts"),
                server.knownHostsLine(KeyUtils.generateKeyPair("ssh-ed25519", 256).getPublic()));
        try (InputLocations inputs = locations()) {
            assertThatThrownBy(() -> inputs.resolve(url("/data")))
                    .isInstanceOf(RocketException.class)
                    .hasMessageContaining("HOST KEY CHANGED for [127.0.0.1]:" + server.port())
                    .hasMessageContaining(server.sshDir.resolve("known_hosts").toString())
                    .hasMessageNotContaining("\n");
        }
    }

    @Test
    void aClosedPortFailsQuickly() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        long start = System.nanoTime();
        try (InputLocations inputs = locations()) {
            String u = "sftp://127.0.0.1:" + port + "/x";
            assertThatThrownBy(() -> inputs.resolve(u))
                    .isInstanceOf(RocketException.class)
                    .hasMessageStartingWith(u + ": cannot connect to 127.0.0.1:" + port + ": ")
                    .hasMessageContaining("refused");
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60)); // a bound on a hang
    }

    @Test
    void aServerThatNeverAnswersTimesOut() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            RemoteSettings fast = server.settings("alice").withTimeouts(Duration.ofMillis(500),
                    Duration.ofMillis(500), Duration.ofSeconds(2));
            long start = System.nanoTime();
            try (InputLocations inputs = new InputLocations(fast)) {
                assertThatThrownBy(() -> inputs.resolve("sftp://127.0.0.1:" + silent.getLocalPort() + "/x"))
                        .isInstanceOf(RocketException.class)
                        .hasMessageContaining("no SSH answer from 127.0.0.1:" + silent.getLocalPort());
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60)); // a bound on a hang
        }
    }

    @Test
    void aPasswordInTheUriIsRefusedWithoutRepeatingIt() {
        try (InputLocations inputs = locations()) {
            assertThatThrownBy(() -> inputs.resolve("sftp://alice:hunter2@127.0.0.1:" + server.port() + "/data"))
                    .isInstanceOf(RocketException.class)
                    .hasMessageContaining("passwords in sftp:// URIs are refused")
                    .hasMessageContaining(server.sshDir.toString())
                    .hasMessageNotContaining("hunter2");
        }
    }

    @Test
    void theSshConfigSuppliesHostNamePortUserAndIdentityFile() throws Exception {
        KeyPair bobKey = KeyUtils.generateKeyPair("ssh-ed25519", 256);
        Path keys = Files.createDirectories(tmp.resolve("keys"));
        SftpServerFixture.writeKey(keys.resolve("bob_key"), bobKey, null);
        server.authorized.put("bob", bobKey.getPublic());
        Files.writeString(server.sshDir.resolve("config"), "Host storage\n"
                + "  HostName 127.0.0.1\n"
                + "  Port " + server.port() + "\n"
                + "  User bob\n"
                + "  IdentityFile " + keys.resolve("bob_key") + "\n"
                + "Host tilde\n"
                + "  HostName 127.0.0.1\n"
                + "  Port " + server.port() + "\n"
                + "  User carol\n"
                + "  IdentitiesOnly yes\n"
                + "  IdentityFile ~/.ssh/carol_key\n");
        KeyPair carolKey = KeyUtils.generateKeyPair("ssh-ed25519", 256);
        SftpServerFixture.writeKey(server.sshDir.resolve("carol_key"), carolKey, null);
        server.authorized.put("carol", carolKey.getPublic());
        Files.writeString(server.root.resolve("f.txt"), "via config");
        try (InputLocations inputs = locations()) {
            Path p = inputs.resolve("sftp://storage/f.txt");
            assertThat(Files.readString(p)).isEqualTo("via config");
            assertThat(InputLocations.display(p)).isEqualTo("sftp://bob@127.0.0.1:" + server.port() + "/f.txt");
            // the URI's user wins over the config's, as on the ssh command line
            assertThatThrownBy(() -> inputs.resolve("sftp://carol@storage/f.txt"))
                    .hasMessageContaining("authentication refused for carol@127.0.0.1:" + server.port());
            // ~ in IdentityFile is the home that holds the ssh directory; IdentitiesOnly leaves out id_ed25519
            assertThat(Files.readString(inputs.resolve("sftp://tilde/f.txt"))).isEqualTo("via config");
        }
        server.authorized.put("carol", aliceKey.getPublic());
        try (InputLocations inputs = locations()) {
            assertThatThrownBy(() -> inputs.resolve("sftp://tilde/f.txt"))
                    .hasMessageContaining("keys tried: " + server.sshDir.resolve("carol_key") + ";");
        }
    }

    @Test
    void keysFromTheSshAgentAreUsed() throws Exception {
        Path agentKey = tmp.resolve("agent_key");
        KeyPair kp = KeyUtils.generateKeyPair("ssh-ed25519", 256);
        SftpServerFixture.writeKey(agentKey, kp, null);
        Files.setPosixFilePermissions(agentKey, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        server.authorized.put("alice", kp.getPublic());
        try (SshAgentProcess agent = SshAgentProcess.startOrSkip(tmp)) {
            agent.add(agentKey);
            RemoteSettings withAgent = server.settings("alice")
                    .withEnvironment(Map.of("SSH_AUTH_SOCK", agent.socket().toString()));
            try (InputLocations inputs = new InputLocations(withAgent)) {
                assertThat(Files.isDirectory(inputs.resolve(url("/")))).isTrue();
            }
            try (InputLocations inputs = locations()) {
                assertThatThrownBy(() -> inputs.resolve(url("/")))
                        .hasMessageContaining("no ssh-agent (SSH_AUTH_SOCK unset)");
            }
        }
    }
}
