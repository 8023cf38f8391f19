package io.rocket.steal.cluster;

/**
 * How a cluster run protects itself: the shared secret every node must hold to join and to open data-plane
 * connections, and whether control and data traffic are encrypted. {@link #NONE}: an open cluster (anyone who
 * reaches the ports can join), for a trusted network or tests.
 *
 * @param secret  the cluster secret's bytes, or null for none
 * @param encrypt whether control messages and item data are encrypted (needs a secret)
 */
public record ClusterSecurity(byte[] secret, boolean encrypt) {

    /** No authentication, no encryption. */
    public static final ClusterSecurity NONE = new ClusterSecurity(null, false);

    public ClusterSecurity {
        if (encrypt && secret == null) {
            throw new IllegalArgumentException("encryption needs a cluster secret");
        }
    }

    /** Whether nodes must prove they hold the secret. */
    public boolean authenticated() {
        return secret != null;
    }
}
