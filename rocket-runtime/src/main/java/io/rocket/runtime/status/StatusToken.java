package io.rocket.runtime.status;

import io.rocket.cluster.ClusterSecurity;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * The token a status endpoint asks for when the run has a cluster secret: a key derived from the secret for this one
 * purpose (HKDF-SHA256, like every other use of the secret), so holding the token tells nothing about the secret or
 * the cluster's other keys, and anyone with the secret file can make it ({@code rocket status} does). It travels as
 * {@code Authorization: Bearer TOKEN} (or {@code ?token=TOKEN} for a browser opening the page) and is compared in
 * constant time.
 */
public final class StatusToken {
    private static final String PURPOSE = "status endpoint token";

    private final byte[] token;

    private StatusToken(byte[] token) {
        this.token = token;
    }

    /**
     * The token of a run, or null for an open one.
     *
     * @param security the run's cluster secret
     * @return the token, or null when there is no secret
     */
    public static StatusToken of(ClusterSecurity security) {
        if (!security.authenticated()) {
            return null;
        }
        byte[] key = security.key(PURPOSE);
        return new StatusToken(Base64.getUrlEncoder().withoutPadding().encodeToString(key)
                .getBytes(StandardCharsets.US_ASCII));
    }

    /** @return the token's text, for a client's {@code Authorization} header */
    public String text() {
        return new String(token, StandardCharsets.US_ASCII);
    }

    /**
     * Whether {@code offered} is this token, in time independent of where they differ.
     *
     * @param offered the token a request offered, or null
     * @return true when it is the token
     */
    public boolean matches(String offered) {
        return offered != null && MessageDigest.isEqual(token, offered.getBytes(StandardCharsets.US_ASCII));
    }
}
