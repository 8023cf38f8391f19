package io.rocket.inputs;

import io.rocket.core.RocketException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.List;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.auth.pubkey.UserAuthPublicKeyFactory;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;
import org.apache.sshd.client.future.AuthFuture;
import org.apache.sshd.client.future.ConnectFuture;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.future.WaitableFuture;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.core.CoreModuleProperties;
import org.apache.sshd.sftp.client.fs.SftpFileSystem;
import org.apache.sshd.sftp.client.fs.SftpFileSystemProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens authenticated SFTP sessions through one Apache MINA SSHD client, set up for a batch job: public keys only
 * (the target's key files and the ssh-agent when {@code SSH_AUTH_SOCK} is set), server keys checked strictly against
 * {@code known_hosts} ({@link StrictKnownHosts}), the settings' time limits on connecting, logging in and every
 * reply, and no prompt ever. Each failure becomes one line that says what to do about it.
 */
final class SftpConnector {
    /** The sftp messages go to one logger, {@link SftpAccess}'s, whichever part of it logs. */
    private static final Logger log = LoggerFactory.getLogger(SftpAccess.class);

    private final RemoteSettings settings;
    private final SshClient client;
    private final SftpFileSystemProvider provider;
    /** Whether the ssh-agent's keys are offered too. */
    private final boolean agent;

    /** Sets up and starts the client. */
    SftpConnector(RemoteSettings settings) {
        this.settings = settings;
        SshClient c = SshClient.setUpDefaultClient();
        // Rocket reads ~/.ssh/config itself (SshConfig), so that the user and port it reports are the ones it uses.
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
        boolean withAgent = false;
        if (socket != null && Files.exists(Path.of(socket))) {
            c.setAgentFactory(new UnixSocketAgentFactory(Path.of(socket)));
            withAgent = true;
        }
        this.agent = withAgent;
        c.start();
        this.provider = new SftpFileSystemProvider(c);
        this.client = c;
    }

    /**
     * Connects to {@code target}, checks the server's key, logs in and opens an SFTP file system on the session.
     *
     * @param loc the location being resolved, which every message names
     * @throws RocketException saying why, in one line, when any step fails or takes too long
     */
    SftpFileSystem connect(Location loc, SshConfig.Target target) {
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
            SshIdentities identities = SshIdentities.load(target.keyFiles());
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
                    throw new RocketException(loc.display() + ": cannot log in to " + where + ": "
                            + SftpAccess.oneLine(cause) + " (" + identities.describe(agent) + ")");
                }
                throw new RocketException(loc.display() + ": authentication refused for " + where + " ("
                        + identities.describe(agent) + ")");
            }
            SftpFileSystem fs = provider.newFileSystem(session);
            log.debug("sftp session to {} open", where);
            done = true;
            return fs;
        } catch (IOException e) {
            throw new RocketException(loc.display() + ": cannot open an SFTP session on " + where + ": "
                    + SftpAccess.oneLine(e), e);
        } finally {
            if (!done && session != null) {
                session.close(true);
            }
        }
    }

    /** Stops the client (after the sessions it opened were closed). */
    void stop() {
        client.stop();
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
        return SftpAccess.oneLine(e);
    }

    private static boolean awaitQuietly(WaitableFuture future, Duration limit) {
        try {
            return future.await(limit);
        } catch (IOException e) {
            return true;
        }
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
