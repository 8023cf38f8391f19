package io.rocket.inputs;

import io.rocket.core.RocketException;
import java.io.Closeable;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.sftp.client.fs.SftpFileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code sftp://} locations through Apache MINA SSHD, set up the way OpenSSH would be so that a user's existing
 * {@code ~/.ssh} just works: keys {@code id_ed25519}, {@code id_ecdsa}, {@code id_rsa} (and {@code IdentityFile}s from
 * {@code ~/.ssh/config}), {@code User}, {@code Port} and {@code HostName} from the config, server keys checked strictly
 * against {@code known_hosts}, and the ssh-agent when {@code SSH_AUTH_SOCK} is set. It never prompts and never sends
 * a password: a batch job has nobody to answer. One authenticated session (one {@link SftpFileSystem}) serves every
 * path on the same user, host and port.
 *
 * <p>This class keeps those sessions and maps locations to paths on them. {@link SshConfig} turns a location into
 * what to connect to, {@link SftpConnector} connects and logs in, {@link SshIdentities} loads the keys it offers and
 * {@link StrictKnownHosts} checks the server's key.
 */
final class SftpAccess implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(SftpAccess.class);

    private final RemoteSettings settings;
    /** One session per {@link SshConfig.Target#key()}. */
    private final Map<String, SftpFileSystem> sessions = new HashMap<>();
    /** Started at the first sftp:// location, so that runs without one start no SSH client; null after close. */
    private SftpConnector connector;
    private SshConfig config;

    SftpAccess(RemoteSettings settings) {
        this.settings = settings;
    }

    synchronized Path resolve(Location loc) {
        if (loc.password()) {
            throw new RocketException(loc.display() + ": passwords in sftp:// URIs are refused (they end up in shell"
                    + " history and process lists); use a key in " + settings.sshDir()
                    + " (id_ed25519, id_ecdsa or id_rsa) or ssh-agent");
        }
        start();
        SshConfig.Target target = config.target(loc);
        SftpFileSystem fs = sessions.get(target.key());
        if (fs == null || !fs.isOpen() || !fs.getClientSession().isOpen()) {
            if (fs != null) {
                closeQuietly(fs);
            }
            fs = connector.connect(loc, target);
            sessions.put(target.key(), fs);
        }
        return path(fs, loc.path());
    }

    /** {@code sftp://host} and {@code sftp://host/~/x} are relative to the login directory, as in OpenSSH's sftp. */
    private static Path path(SftpFileSystem fs, String path) {
        if (path.isEmpty() || path.equals("/~") || path.equals("/~/")) {
            return fs.getDefaultDir();
        }
        if (path.startsWith("/~/")) {
            return fs.getDefaultDir().resolve(path.substring(3));
        }
        return fs.getPath(path);
    }

    private void start() {
        if (connector != null) {
            return;
        }
        connector = new SftpConnector(settings);
        config = new SshConfig(settings);
    }

    /** The innermost message of {@code e} that says something, on one line; used by every remote scheme. */
    static String oneLine(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t && (t.getMessage() == null
                || t.getMessage().equals(t.getCause().toString()))) {
            t = t.getCause();
        }
        String message = t.getMessage();
        if (message == null || message.isBlank()) {
            message = t.getClass().getSimpleName();
        }
        if (t instanceof NoSuchFileException) {
            message = "no such file " + message;
        }
        return message.replaceAll("\\s*[\\r\\n]+\\s*", " ").trim();
    }

    private static void closeQuietly(Closeable c) {
        try {
            c.close();
        } catch (IOException | RuntimeException e) {
            log.debug("closing {}: {}", c, e.toString());
        }
    }

    @Override
    public synchronized void close() {
        for (SftpFileSystem fs : sessions.values()) {
            closeQuietly(fs);
            fs.getClientSession().close(true);
        }
        sessions.clear();
        if (connector != null) {
            connector.stop();
            connector = null;
        }
    }

    /** {@code sftp://user@host:port} of an SFTP file system, or null for other file systems. */
    static String origin(java.nio.file.FileSystem fileSystem) {
        if (!(fileSystem instanceof SftpFileSystem fs) || fs.getClientSession() == null) {
            return null;
        }
        ClientSession session = fs.getClientSession();
        SocketAddress a = session.getConnectAddress();
        String host;
        int port;
        if (a instanceof java.net.InetSocketAddress isa) {
            host = isa.getHostString();
            port = isa.getPort();
        } else if (a instanceof org.apache.sshd.common.util.net.SshdSocketAddress ssa) {
            host = ssa.getHostName();
            port = ssa.getPort();
        } else {
            return null;
        }
        String user = session.getUsername();
        return "sftp://" + (user == null ? "" : user + "@") + (host.contains(":") ? "[" + host + "]" : host) + ":"
                + port;
    }
}
