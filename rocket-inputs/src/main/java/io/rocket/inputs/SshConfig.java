package io.rocket.inputs;

import io.rocket.core.RocketException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import org.apache.sshd.client.config.hosts.ConfigFileHostEntryResolver;
import org.apache.sshd.client.config.hosts.HostConfigEntry;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;

/**
 * The user's OpenSSH client set-up applied to an {@code sftp://} location, as the {@code ssh} command would apply
 * it: {@code HostName}, {@code Port}, {@code User}, {@code IdentityFile} and {@code IdentitiesOnly} from
 * {@code ~/.ssh/config}, the URI's user and port winning over the config's, and OpenSSH's default key files. Rocket
 * reads the config itself, rather than letting the SSH client do it, so that the user and port it reports are the
 * ones it uses.
 */
final class SshConfig {

    /** The default keys OpenSSH tries, in its order (DSA and security-key types are left out). */
    private static final List<String> DEFAULT_KEYS = List.of("id_ed25519", "id_ecdsa", "id_rsa");

    private final RemoteSettings settings;
    private final HostConfigEntryResolver config;

    /** Reads {@code config} from the settings' ssh directory, if there is one. */
    SshConfig(RemoteSettings settings) {
        this.settings = settings;
        Path configFile = settings.sshDir().resolve("config");
        this.config = Files.isRegularFile(configFile) ? new ConfigFileHostEntryResolver(configFile)
                : HostConfigEntryResolver.EMPTY;
    }

    /**
     * A location's target after the ssh config is applied: what to connect to, as whom, with which key files.
     *
     * @param user     the user to log in as
     * @param host     the host to connect to
     * @param port     the port to connect to
     * @param keyFiles the key files to try, in order, without repeats
     */
    record Target(String user, String host, int port, List<Path> keyFiles) {
        /** {@code user@host:port}: one session serves every path with the same key. */
        String key() {
            return user + "@" + host + ":" + port;
        }
    }

    /**
     * The target of {@code loc}.
     *
     * @throws RocketException if the config cannot be read
     */
    Target target(Location loc) {
        HostConfigEntry entry;
        try {
            entry = config.resolveEffectiveHost(loc.host(), loc.port(), null, loc.user(), null, null);
        } catch (IOException | RuntimeException e) {
            throw new RocketException(loc.display() + ": cannot read " + settings.sshDir().resolve("config") + ": "
                    + SftpAccess.oneLine(e));
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

    private static boolean notEmpty(String s) {
        return s != null && !s.isEmpty();
    }
}
