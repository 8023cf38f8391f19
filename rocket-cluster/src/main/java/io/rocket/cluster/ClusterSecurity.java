package io.rocket.cluster;

import io.rocket.core.RocketException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * How a cluster run protects itself: the shared secret every node must hold to join and to open data-plane
 * connections, and whether control and data traffic are encrypted. {@link #NONE}: an open cluster (anyone who
 * reaches the ports can join), for a trusted network or tests. The secret itself never goes on the wire: every use
 * of it is a key derived from it for one purpose ({@link #key}), and nodes prove they hold it with HMACs over fresh
 * data.
 *
 * @param secret  the cluster secret's bytes, or null for none
 * @param encrypt whether control messages and item data are encrypted (needs a secret)
 */
public record ClusterSecurity(byte[] secret, boolean encrypt) {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterSecurity.class);

    /** No authentication, no encryption. */
    public static final ClusterSecurity NONE = new ClusterSecurity(null, false);

    /** Larger secret files are certainly not what was meant (a key, not a document). */
    static final int MAX_SECRET_BYTES = 4096;
    /** Secrets shorter than this are accepted with a warning: they may be guessable. */
    static final int WEAK_SECRET_BYTES = 16;
    private static final byte[] SALT = "rocket cluster secret v1".getBytes(StandardCharsets.US_ASCII);

    public ClusterSecurity {
        if (encrypt && secret == null) {
            throw new IllegalArgumentException("encryption needs a cluster secret");
        }
        if (secret != null && secret.length == 0) {
            throw new IllegalArgumentException("the cluster secret is empty");
        }
        secret = secret == null ? null : secret.clone();
    }

    /** Whether nodes must prove they hold the secret. */
    public boolean authenticated() {
        return secret != null;
    }

    /**
     * Reads the secret from {@code file}: its bytes, less trailing line ends (so {@code echo word > file} and
     * {@code head -c 32 /dev/urandom > file} both work). Warns when the file is readable by the group or others, or
     * the secret is short; fails with a one-line message naming the file when it is missing, unreadable or empty.
     */
    public static ClusterSecurity fromFile(Path file, boolean encrypt) {
        byte[] bytes;
        try {
            if (Files.isDirectory(file)) {
                throw new RocketException("cluster secret file " + file + " is a directory");
            }
            if (Files.size(file) > MAX_SECRET_BYTES) {
                throw new RocketException("cluster secret file " + file + " is larger than " + MAX_SECRET_BYTES
                        + " bytes; it should hold a key such as 32 random bytes");
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new RocketException("cluster secret file " + file + " does not exist");
        } catch (IOException e) {
            throw new RocketException("cannot read the cluster secret file " + file + ": " + e.getMessage(), e);
        }
        int length = bytes.length;
        while (length > 0 && (bytes[length - 1] == '\n' || bytes[length - 1] == '\r')) {
            length--;
        }
        if (length == 0) {
            throw new RocketException("cluster secret file " + file + " is empty");
        }
        byte[] secret = Arrays.copyOf(bytes, length);
        Arrays.fill(bytes, (byte) 0);
        warnIfOthersCanRead(file);
        if (length < WEAK_SECRET_BYTES) {
            LOG.warn("the cluster secret in {} is only {} bytes; use at least {} random bytes "
                    + "(head -c 32 /dev/urandom > {})", file, length, WEAK_SECRET_BYTES, file);
        }
        ClusterSecurity security = new ClusterSecurity(secret, encrypt);
        Arrays.fill(secret, (byte) 0);
        return security;
    }

    /** Whether {@code file} can be read by its group or by others (false where permissions are not POSIX). */
    static boolean othersCanRead(Path file) {
        try {
            Set<PosixFilePermission> p = Files.getPosixFilePermissions(file);
            return !java.util.Collections.disjoint(p, EnumSet.of(PosixFilePermission.GROUP_READ,
                    PosixFilePermission.OTHERS_READ));
        } catch (UnsupportedOperationException | IOException e) {
            return false;
        }
    }

    private static void warnIfOthersCanRead(Path file) {
        if (othersCanRead(file)) {
            LOG.warn("the cluster secret file {} can be read by other users; make it private: chmod 600 {}", file, file);
        }
    }

    /**
     * A 32-byte key for one purpose, derived from the secret with HKDF-SHA256 (RFC 5869): extract with a fixed
     * salt, expand with the purpose as info. Keys for different purposes are independent, so no use of one (an
     * authentication tag, a cipher) tells anything about another or about the secret.
     */
    public byte[] key(String purpose) {
        if (secret == null) {
            throw new IllegalStateException("no cluster secret");
        }
        byte[] prk = hmac(SALT, secret);
        byte[] info = purpose.getBytes(StandardCharsets.UTF_8);
        byte[] block = new byte[info.length + 1];
        System.arraycopy(info, 0, block, 0, info.length);
        block[info.length] = 1;
        byte[] key = hmac(prk, block);
        Arrays.fill(prk, (byte) 0);
        return key;
    }

    /** HMAC-SHA256 of the concatenated parts. */
    static byte[] hmac(byte[] key, byte[]... parts) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            for (byte[] part : parts) {
                mac.update(part);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    @Override
    public byte[] secret() {
        return secret == null ? null : secret.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClusterSecurity s && encrypt == s.encrypt && Arrays.equals(secret, s.secret);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(secret) * 31 + Boolean.hashCode(encrypt);
    }

    @Override
    public String toString() {
        return secret == null ? "ClusterSecurity[open]" : "ClusterSecurity[secret, encrypt=" + encrypt + "]";
    }
}
