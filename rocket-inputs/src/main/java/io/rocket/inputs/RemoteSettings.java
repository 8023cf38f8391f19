package io.rocket.inputs;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Where {@link InputLocations} finds the user's remote-storage set-up: the OpenSSH directory (keys, {@code known_hosts},
 * {@code config}), the AWS directory ({@code config}, {@code credentials}), the environment to read {@code AWS_*} and
 * {@code SSH_AUTH_SOCK} from, the local user name, and the time limits that keep a dead server from hanging a run.
 * Everything is explicit so that tests can point at their own servers and files without touching the process
 * environment or system properties; {@link #fromEnvironment()} is what a real run uses.
 *
 * @param sshDir         the OpenSSH directory, normally {@code ~/.ssh}
 * @param awsDir         the AWS directory, normally {@code ~/.aws} ({@code AWS_CONFIG_FILE} and
 *                       {@code AWS_SHARED_CREDENTIALS_FILE} in {@code environment} override the files in it)
 * @param environment    the environment variables to read ({@code System.getenv()} in a real run)
 * @param localUser      the user name for {@code sftp://} when neither the URI nor the ssh config names one
 * @param connectTimeout the longest wait for a TCP connection (and the SSH key exchange)
 * @param authTimeout    the longest wait for SSH authentication
 * @param readTimeout    the longest wait for any one reply from a server once connected
 */
public record RemoteSettings(Path sshDir, Path awsDir, Map<String, String> environment, String localUser,
                             Duration connectTimeout, Duration authTimeout, Duration readTimeout) {

    /** The system property that replaces {@code ~/.ssh}, for tests and unusual set-ups. */
    public static final String SSH_DIR_PROPERTY = "rocket.ssh.dir";

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_AUTH_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(60);

    public RemoteSettings {
        Objects.requireNonNull(sshDir, "sshDir");
        Objects.requireNonNull(awsDir, "awsDir");
        environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
        Objects.requireNonNull(localUser, "localUser");
        requirePositive(connectTimeout, "connectTimeout");
        requirePositive(authTimeout, "authTimeout");
        requirePositive(readTimeout, "readTimeout");
    }

    /**
     * The settings of this process: {@code System.getenv()}, {@code ~/.ssh} (or the directory in the system property
     * {@value #SSH_DIR_PROPERTY}), {@code ~/.aws}, the {@code user.name} system property and the default timeouts.
     */
    public static RemoteSettings fromEnvironment() {
        Path home = Path.of(System.getProperty("user.home", "."));
        String sshDir = System.getProperty(SSH_DIR_PROPERTY);
        return new RemoteSettings(sshDir == null || sshDir.isBlank() ? home.resolve(".ssh") : Path.of(sshDir),
                home.resolve(".aws"), System.getenv(), System.getProperty("user.name", ""),
                DEFAULT_CONNECT_TIMEOUT, DEFAULT_AUTH_TIMEOUT, DEFAULT_READ_TIMEOUT);
    }

    /**
     * Settings that read nothing from this process: the given ssh directory, an AWS directory beside it, an empty
     * environment and the default timeouts. The starting point for tests.
     */
    public static RemoteSettings isolated(Path sshDir, String localUser) {
        Path base = sshDir.toAbsolutePath().getParent();
        return new RemoteSettings(sshDir, (base == null ? sshDir : base).resolve(".aws"), Map.of(), localUser,
                DEFAULT_CONNECT_TIMEOUT, DEFAULT_AUTH_TIMEOUT, DEFAULT_READ_TIMEOUT);
    }

    public RemoteSettings withSshDir(Path dir) {
        return new RemoteSettings(dir, awsDir, environment, localUser, connectTimeout, authTimeout, readTimeout);
    }

    public RemoteSettings withAwsDir(Path dir) {
        return new RemoteSettings(sshDir, dir, environment, localUser, connectTimeout, authTimeout, readTimeout);
    }

    public RemoteSettings withEnvironment(Map<String, String> env) {
        return new RemoteSettings(sshDir, awsDir, env, localUser, connectTimeout, authTimeout, readTimeout);
    }

    public RemoteSettings withLocalUser(String user) {
        return new RemoteSettings(sshDir, awsDir, environment, user, connectTimeout, authTimeout, readTimeout);
    }

    public RemoteSettings withTimeouts(Duration connect, Duration auth, Duration read) {
        return new RemoteSettings(sshDir, awsDir, environment, localUser, connect, auth, read);
    }

    /** The home directory that {@code ~} stands for in ssh config values: the parent of {@link #sshDir()}. */
    Path home() {
        Path parent = sshDir.toAbsolutePath().getParent();
        return parent == null ? sshDir.toAbsolutePath() : parent;
    }

    /** An environment variable, or null when unset or blank (the AWS tools treat blank as unset). */
    String env(String name) {
        String value = environment.get(name);
        return value == null || value.isBlank() ? null : value.trim();
    }

    private static void requirePositive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
    }
}
