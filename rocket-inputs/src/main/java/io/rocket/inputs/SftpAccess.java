package io.rocket.inputs;

import io.rocket.core.RocketException;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.auth.pubkey.UserAuthPublicKeyFactory;
import org.apache.sshd.client.config.hosts.ConfigFileHostEntryResolver;
import org.apache.sshd.client.config.hosts.HostConfigEntry;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;
import org.apache.sshd.client.config.hosts.KnownHostEntry;
import org.apache.sshd.client.future.AuthFuture;
import org.apache.sshd.client.future.ConnectFuture;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.AttributeRepository.AttributeKey;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.common.util.io.resource.PathResource;
import org.apache.sshd.common.util.security.SecurityUtils;
import org.apache.sshd.core.CoreModuleProperties;
import org.apache.sshd.sftp.client.fs.SftpFileSystem;
import org.apache.sshd.sftp.client.fs.SftpFileSystemProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code sftp://} locations through Apache MINA SSHD, set up the way OpenSSH would be so that a user's existing
 * {@code ~/.ssh} just works: keys {@code id_ed25519}, {@code id_ecdsa}, {@code id_rsa} (and {@code IdentityFile}s from
 * {@code ~/.ssh/config}), {@code User}, {@code Port} and {@code HostName} from the config, server keys checked strictly
 * against {@code known_hosts}, and the ssh-agent when {@code SSH_AUTH_SOCK} is set. It never prompts and never sends
 * a password: a batch job has nobody to answer. One authenticated session (one {@link SftpFileSystem}) serves every
 * path on the same user, host and port.
 */
final class SftpAccess implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(SftpAccess.class);

    /** The default keys OpenSSH tries, in its order (DSA and security-key types are left out). */
    private static final List<String> DEFAULT_KEYS = List.of("id_ed25519", "id_ecdsa", "id_rsa");

    private final RemoteSettings settings;
    private final Map<String, SftpFileSystem> sessions = new HashMap<>();
    private SshClient client;
    private SftpFileSystemProvider provider;
    private HostConfigEntryResolver config;
    private boolean agent;

    SftpAccess(RemoteSettings settings) {
        this.settings = settings;
    }

    /** The target after the ssh config is applied: what to connect to, as whom, with which key files. */
    private record Target(String user, String host, int port, List<Path> keyFiles) {
        String key() {
            return user + "@" + host + ":" + port;
        }
    }

    synchronized Path resolve(Location loc) {
        if (loc.password()) {
            throw new RocketException(loc.display() + ": passwords in sftp:// URIs are refused (they end up in shell"
                    + " history and process lists); use a key in " + settings.sshDir()
                    + " (id_ed25519, id_ecdsa or id_rsa) or ssh-agent");
        }
        start();
        Target target = target(loc);
        SftpFileSystem fs = sessions.get(target.key());
        if (fs == null || !fs.isOpen() || !fs.getClientSession().isOpen()) {
            if (fs != null) {
                closeQuietly(fs);
            }
            fs = connect(loc, target);
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
        if (client != null) {
            return;
        }
        SshClient c = SshClient.setUpDefaultClient();
        // Rocket reads ~/.ssh/config itself (below), so that the user and port it reports are the ones it uses.
        c.setHostConfigEntryResolver(HostConfigEntryResolver.EMPTY);
        c.setServerKeyVerifier(new StrictKnownHosts(settings.sshDir().resolve("known_hosts")));
        c.setKeyIdentityProvider(KeyIdentityProvider.EMPTY_KEYS_PROVIDER);
        c.setFilePasswordProvider(FilePasswordProvider.EMPTY);
        // Public keys only: no password, no keyboard-interactive prompt nobody could answer.
        c.setUserAuthFactories(List.of(UserAuthPublicKeyFactory.INSTANCE));
        Duration connect = settings.connectTimeout();
        Duration read = settings.readTimeout();
        CoreModuleProperties.IO_CONNECT_TIMEOUT.set(c, connect);
        CoreModuleProperties.AUTH_TIMEOUT.set(c, settings.authTimeout());
        // IDLE_TIMEOUT also bounds the wait for each SFTP reply; heartbeats keep a healthy session from idling out
        // while the runtime computes, and close one whose server stopped answering.
        CoreModuleProperties.IDLE_TIMEOUT.set(c, read);
        CoreModuleProperties.NIO2_READ_TIMEOUT.set(c, read.plus(read));
        Duration beat = read.dividedBy(4);
        CoreModuleProperties.HEARTBEAT_INTERVAL.set(c, beat);
        CoreModuleProperties.HEARTBEAT_REPLY_WAIT.set(c, beat);
        CoreModuleProperties.HEARTBEAT_NO_REPLY_MAX.set(c, 3);
        String socket = settings.env("SSH_AUTH_SOCK");
        if (socket != null && Files.exists(Path.of(socket))) {
            c.setAgentFactory(new UnixSocketAgentFactory(Path.of(socket)));
            agent = true;
        }
        c.start();
        Path configFile = settings.sshDir().resolve("config");
        config = Files.isRegularFile(configFile) ? new ConfigFileHostEntryResolver(configFile)
                : HostConfigEntryResolver.EMPTY;
        provider = new SftpFileSystemProvider(c);
        client = c;
    }

    private Target target(Location loc) {
        HostConfigEntry entry;
        try {
            entry = config.resolveEffectiveHost(loc.host(), loc.port(), null, loc.user(), null, null);
        } catch (IOException | RuntimeException e) {
            throw new RocketException(loc.display() + ": cannot read " + settings.sshDir().resolve("config") + ": "
                    + oneLine(e));
        }
        String host = loc.host();
        int port = loc.port() > 0 ? loc.port() : 22;
        String user = loc.user();
        List<Path> keys = new ArrayList<>();
        boolean identitiesOnly = false;
        if (entry != null) {
            // The URI wins over the config, as the ssh command line does.
            if (notEmpty(entry.getHostName())) {
                host = entry.getHostName();
            }
            if (loc.port() <= 0 && entry.getPort() > 0) {
                port = entry.getPort();
            }
            // Only a User line counts: the parser fills in this process's user name, which settings replace.
            if (user == null && notEmpty(entry.getProperty(HostConfigEntry.USER_CONFIG_PROP))) {
                user = entry.getUsername();
            }
            Collection<String> ids = entry.getIdentities();
            if (ids != null) {
                for (String id : ids) {
                    keys.add(identityPath(id));
                }
            }
            identitiesOnly = entry.isIdentitiesOnly();
        }
        if (user == null || user.isEmpty()) {
            user = settings.localUser();
        }
        if (!identitiesOnly) {
            for (String name : DEFAULT_KEYS) {
                keys.add(settings.sshDir().resolve(name));
            }
        }
        return new Target(user, host, port, List.copyOf(new LinkedHashSet<>(keys)));
    }

    /**
     * The parser expands {@code ~} and {@code %d} with this process's home; when the ssh directory is elsewhere
     * ({@value RemoteSettings#SSH_DIR_PROPERTY}, tests), {@code ~} means the home that holds it.
     */
    private Path identityPath(String id) {
        Path p = Path.of(id);
        Path processHome = Path.of(System.getProperty("user.home", "/")).toAbsolutePath();
        if (p.isAbsolute() && p.startsWith(processHome) && !settings.home().equals(processHome)) {
            return settings.home().resolve(processHome.relativize(p));
        }
        return p.isAbsolute() ? p : settings.home().resolve(p);
    }

    private SftpFileSystem connect(Location loc, Target target) {
        String where = target.user() + "@" + target.host() + ":" + target.port();
        ClientSession session = null;
        boolean done = false;
        try {
            ConnectFuture connecting;
            try {
                connecting = client.connect(target.user(), target.host(), target.port());
            } catch (IOException | RuntimeException e) {
                throw new RocketException(loc.display() + ": cannot connect to " + target.host() + ":"
                        + target.port() + ": " + connectCause(e, target.host()));
            }
            if (!awaitQuietly(connecting, settings.connectTimeout())) {
                connecting.cancel();
                throw new RocketException(loc.display() + ": cannot connect to " + target.host() + ":"
                        + target.port() + ": no answer within " + seconds(settings.connectTimeout()));
            }
            if (connecting.getException() != null) {
                throw new RocketException(loc.display() + ": cannot connect to " + target.host() + ":"
                        + target.port() + ": " + connectCause(connecting.getException(), target.host()));
            }
            session = connecting.getSession();
            Identities identities = loadIdentities(target.keyFiles());
            for (KeyPair kp : identities.keys()) {
                session.addPublicKeyIdentity(kp);
            }
            AuthFuture auth = session.auth();
            // The key exchange (and the host key check) happens inside auth(): allow for both.
            Duration limit = settings.connectTimeout().plus(settings.authTimeout());
            boolean finished = awaitQuietly(auth, limit);
            String refusal = session.getAttribute(StrictKnownHosts.REFUSAL);
            if (refusal == null && finished && !auth.isSuccess() && auth.getException() != null
                    && String.valueOf(auth.getException().getMessage()).contains("did not validate")) {
                // The key exchange can fail before the verifier's reason is visible here: say it in general terms.
                refusal = StrictKnownHosts.refusedWithoutReason(session, settings.sshDir().resolve("known_hosts"));
            }
            if (refusal != null) {
                throw new RocketException(loc.display() + ": " + refusal);
            }
            if (!(finished && auth.isSuccess()) && session.getServerVersion() == null) {
                auth.cancel();
                throw new RocketException(loc.display() + ": no SSH answer from " + target.host() + ":"
                        + target.port() + " within " + seconds(limit) + " (is it an SSH server?)");
            }
            if (!finished) {
                auth.cancel();
                throw new RocketException(loc.display() + ": no answer from " + where + " within " + seconds(limit)
                        + " while logging in");
            }
            if (!auth.isSuccess()) {
                Throwable cause = auth.getException();
                if (cause != null && !String.valueOf(cause.getMessage()).contains("No more authentication methods")) {
                    throw new RocketException(loc.display() + ": cannot log in to " + where + ": " + oneLine(cause)
                            + " (" + identities.describe(agent) + ")");
                }
                throw new RocketException(loc.display() + ": authentication refused for " + where + " ("
                        + identities.describe(agent) + ")");
            }
            SftpFileSystem fs = provider.newFileSystem(session);
            log.debug("sftp session to {} open", where);
            done = true;
            return fs;
        } catch (IOException e) {
            throw new RocketException(loc.display() + ": cannot open an SFTP session on " + where + ": " + oneLine(e),
                    e);
        } finally {
            if (!done && session != null) {
                session.close(true);
            }
        }
    }

    /** The keys that could be loaded, and a note for each file that was skipped. */
    private record Identities(List<KeyPair> keys, List<String> tried, List<String> skipped) {
        String describe(boolean agent) {
            StringBuilder sb = new StringBuilder();
            sb.append(tried.isEmpty() ? "no usable key files" : "keys tried: " + String.join(", ", tried));
            if (!skipped.isEmpty()) {
                sb.append("; skipped: ").append(String.join(", ", skipped));
            }
            sb.append(agent ? "; ssh-agent keys tried too" : "; no ssh-agent (SSH_AUTH_SOCK unset)");
            return sb.toString();
        }
    }

    private Identities loadIdentities(List<Path> files) {
        List<KeyPair> keys = new ArrayList<>();
        List<String> tried = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (Path file : files) {
            if (!Files.isRegularFile(file)) {
                continue;
            }
            boolean[] asked = {false};
            // Asked for a passphrase means the key is encrypted: say so instead of failing on a prompt.
            FilePasswordProvider noPassphrase = (session, resource, retry) -> {
                asked[0] = true;
                return null;
            };
            try (InputStream in = Files.newInputStream(file)) {
                Iterable<KeyPair> loaded = SecurityUtils.loadKeyPairIdentities(null, new PathResource(file), in,
                        noPassphrase);
                int before = keys.size();
                if (loaded != null) {
                    loaded.forEach(keys::add);
                }
                if (keys.size() > before) {
                    tried.add(file.toString());
                } else {
                    skipped.add(file + " (no key in it)");
                }
            } catch (IOException | GeneralSecurityException | RuntimeException e) {
                String why = asked[0] ? "encrypted; add it to ssh-agent with ssh-add" : "unreadable: " + oneLine(e);
                skipped.add(file + " (" + why + ")");
                log.warn("sftp: skipping key {}: {}", file, why);
            }
        }
        return new Identities(keys, tried, skipped);
    }

    private static String connectCause(Throwable e, String host) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) {
                return "unknown host '" + host + "'";
            }
            if (t instanceof ConnectException) {
                return t.getMessage() == null ? "connection refused" : t.getMessage();
            }
        }
        return oneLine(e);
    }

    private static boolean awaitQuietly(org.apache.sshd.common.future.WaitableFuture future, Duration limit) {
        try {
            return future.await(limit);
        } catch (IOException e) {
            return true;
        }
    }

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

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    private static boolean notEmpty(String s) {
        return s != null && !s.isEmpty();
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
        if (client != null) {
            client.stop();
            client = null;
        }
    }

    /**
     * known_hosts checked as OpenSSH's {@code StrictHostKeyChecking yes} does: an unknown host or a changed key
     * refuses the connection and is never written to the file. The reason is left on the session so that the
     * error can name the host, the key and the file instead of a bare "key exchange failed".
     */
    static final class StrictKnownHosts extends KnownHostsServerKeyVerifier {
        static final AttributeKey<String> REFUSAL = new AttributeKey<>();
        private final Path file;

        StrictKnownHosts(Path file) {
            // The delegate decides on hosts the file does not know (or when there is no file): refuse, saying why.
            super((session, remote, key) -> {
                String where = Files.exists(file) ? "is not in " + file : "cannot be checked: no " + file;
                session.setAttribute(REFUSAL, "host key of " + hostName(session) + " (" + describe(key) + ") "
                        + where + "; connect once with ssh to check and record it");
                return false;
            }, file);
            this.file = file;
            setModifiedServerKeyAcceptor(this::refuseChanged);
        }

        /** The refusal when only the key exchange's failure is known: the key is unknown, or does not match. */
        static String refusedWithoutReason(ClientSession session, Path file) {
            if (!Files.exists(file)) {
                return "host key of " + hostName(session) + " cannot be checked: no " + file
                        + "; connect once with ssh to check and record it";
            }
            if (knows(file, session)) {
                return "HOST KEY CHANGED for " + hostName(session) + ": the server's key does not match " + file
                        + "; refused (if the server was reinstalled, remove the old line with ssh-keygen -R "
                        + hostName(session) + " and connect once with ssh to check the new key)";
            }
            return "host key of " + hostName(session) + " is not in " + file
                    + "; connect once with ssh to check and record it";
        }

        /** Whether {@code file} has an entry for the session's host (whatever its key). */
        private static boolean knows(Path file, ClientSession session) {
            SocketAddress a = session.getConnectAddress();
            String host = a instanceof java.net.InetSocketAddress isa ? isa.getHostString()
                    : a instanceof org.apache.sshd.common.util.net.SshdSocketAddress ssa ? ssa.getHostName() : null;
            int port = a instanceof java.net.InetSocketAddress isa ? isa.getPort()
                    : a instanceof org.apache.sshd.common.util.net.SshdSocketAddress ssa ? ssa.getPort() : 22;
            try {
                for (KnownHostEntry entry : KnownHostEntry.readKnownHostEntries(file)) {
                    if (host != null && entry.isHostMatch(host, port)) {
                        return true;
                    }
                }
            } catch (IOException | RuntimeException e) {
                return false;
            }
            return false;
        }

        private boolean refuseChanged(ClientSession session, SocketAddress remote, KnownHostEntry entry,
                                      PublicKey expected, PublicKey actual) {
            session.setAttribute(REFUSAL, "HOST KEY CHANGED for " + hostName(session) + ": the server offered "
                    + describe(actual) + " but " + file + " records " + describe(expected)
                    + "; refused (if the server was reinstalled, remove the old line with ssh-keygen -R "
                    + hostName(session) + " and connect once with ssh to check the new key)");
            return false;
        }

        @Override
        protected void handleRevokedKey(ClientSession session, SocketAddress remote, PublicKey key) {
            session.setAttribute(REFUSAL, "host key of " + hostName(session) + " (" + describe(key)
                    + ") is marked @revoked in " + file);
            super.handleRevokedKey(session, remote, key);
        }

        private static String hostName(ClientSession session) {
            SocketAddress a = session.getConnectAddress();
            if (a instanceof java.net.InetSocketAddress isa) {
                int port = isa.getPort();
                String host = isa.getHostString();
                return port == 22 ? host : "[" + host + "]:" + port;
            }
            if (a instanceof org.apache.sshd.common.util.net.SshdSocketAddress ssa) {
                return ssa.getPort() == 22 ? ssa.getHostName() : "[" + ssa.getHostName() + "]:" + ssa.getPort();
            }
            return String.valueOf(a);
        }

        private static String describe(PublicKey key) {
            return key == null ? "no key" : KeyUtils.getKeyType(key) + " " + KeyUtils.getFingerPrint(key);
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
