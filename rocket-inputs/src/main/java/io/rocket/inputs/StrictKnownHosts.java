package io.rocket.inputs;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import org.apache.sshd.client.config.hosts.KnownHostEntry;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.AttributeRepository.AttributeKey;
import org.apache.sshd.common.config.keys.KeyUtils;

/**
 * known_hosts checked as OpenSSH's {@code StrictHostKeyChecking yes} does: an unknown host or a changed key
 * refuses the connection and is never written to the file. The reason is left on the session so that the
 * error can name the host, the key and the file instead of a bare "key exchange failed".
 */
final class StrictKnownHosts extends KnownHostsServerKeyVerifier {
    /** The session attribute that holds why the server's key was refused. */
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
