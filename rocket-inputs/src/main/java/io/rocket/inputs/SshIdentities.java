package io.rocket.inputs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.List;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.util.io.resource.PathResource;
import org.apache.sshd.common.util.security.SecurityUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The private keys an sftp:// login offers, loaded from key files without ever asking for a passphrase, and a note
 * for each file that was skipped, so that a refused login can say which keys were tried and why others were not.
 *
 * @param keys    the keys loaded, in file order
 * @param tried   the files keys were loaded from
 * @param skipped each file that exists but gave no key, with the reason
 */
record SshIdentities(List<KeyPair> keys, List<String> tried, List<String> skipped) {
    /** The sftp messages go to one logger, {@link SftpAccess}'s, whichever part of it logs. */
    private static final Logger log = LoggerFactory.getLogger(SftpAccess.class);

    /**
     * Loads the keys of {@code files}; a file that does not exist is passed over, one that cannot be used is noted
     * (and logged: an encrypted key is a set-up the user may not know is skipped).
     */
    static SshIdentities load(List<Path> files) {
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
                String why = asked[0] ? "encrypted; add it to ssh-agent with ssh-add"
                        : "unreadable: " + SftpAccess.oneLine(e);
                skipped.add(file + " (" + why + ")");
                log.warn("sftp: skipping key {}: {}", file, why);
            }
        }
        return new SshIdentities(keys, tried, skipped);
    }

    /** The keys tried and skipped, and whether the ssh-agent's were offered too, for an error message. */
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
