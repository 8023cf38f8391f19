package io.rocket.cluster;

import org.jgroups.Address;
import org.jgroups.Message;
import org.jgroups.auth.AuthToken;
import org.jgroups.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The proof a node holds the cluster secret, for JGroups' AUTH protocol (joins, merges, and the coordinator's
 * answers): an HMAC-SHA256, keyed with a key derived from the secret, over the sender's address, the time and a
 * fresh random nonce. The secret and the key never leave the node; a token is bound to its sender (it does not verify
 * for another address), valid for {@link #WINDOW_MILLIS} around the receiver's clock, and accepted once (the
 * receiver remembers the nonces it has seen in that window), so a recorded token cannot be replayed. JGroups' own
 * tokens send the secret, or a fixed hash of it that works as well as the secret, which is why this one exists.
 *
 * <p>AUTH creates the token it receives by reflection, hence the public no-argument constructor; such a token only
 * carries the received fields and verifies nothing.
 */
public final class ClusterAuthToken extends AuthToken {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterAuthToken.class);
    /** How far a token's time may be from the receiver's clock (node clocks must agree this well). */
    static final long WINDOW_MILLIS = 5 * 60_000;
    private static final int NONCE = 16;
    private static final int MAC = 32;
    /** What {@link #readFrom} reads: a time, a nonce and a MAC. */
    static final int WIRE_BYTES = Long.BYTES + NONCE + MAC;
    /** Nonces remembered; beyond this the oldest go (a replay then also needs to beat the clock window). */
    private static final int MAX_SEEN = 100_000;
    private static final byte[] LABEL = "rocket jgroups auth v1".getBytes(StandardCharsets.US_ASCII);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] key;
    private final Map<ByteBuffer, Long> seen = new LinkedHashMap<>();
    private volatile String lastFailure = "";
    // The received fields (a token read from the wire).
    private long time;
    private final byte[] nonce = new byte[NONCE];
    private final byte[] mac = new byte[MAC];

    /** For AUTH's reflection: a token read from a message. */
    public ClusterAuthToken() {
        this.key = null;
    }

    /** This node's token: signs what it sends and verifies what it receives. */
    ClusterAuthToken(ClusterSecurity security) {
        // Nodes that disagree about encryption could not talk after joining: refuse them at join instead.
        this.key = security.key(security.encrypt() ? "jgroups auth encrypted" : "jgroups auth");
    }

    @Override
    public String getName() {
        return getClass().getName();
    }

    @Override
    public int size() {
        return WIRE_BYTES;
    }

    /** Writes a fresh proof each time (the same token object goes out with many messages, on several threads). */
    @Override
    public void writeTo(DataOutput out) throws IOException {
        if (key == null) {
            out.writeLong(time);
            out.write(nonce);
            out.write(mac);
            return;
        }
        long now = System.currentTimeMillis();
        byte[] n = new byte[NONCE];
        RANDOM.nextBytes(n);
        out.writeLong(now);
        out.write(n);
        out.write(proof(key, self(), now, n));
    }

    @Override
    public void readFrom(DataInput in) throws IOException {
        time = in.readLong();
        in.readFully(nonce);
        in.readFully(mac);
    }

    private Address self() throws IOException {
        Address a = auth == null ? null : auth.getAddress();
        if (a == null) {
            throw new IOException("cluster authentication: this node has no address yet");
        }
        return a;
    }

    @Override
    public boolean authenticate(AuthToken token, Message msg) {
        if (key == null) {
            return false;
        }
        if (!(token instanceof ClusterAuthToken t)) {
            return fail(msg, "it sent no cluster-secret proof (" + (token == null ? "none" : token.getName()) + ")");
        }
        if (t.key != null) {
            // A token that holds a key was never on the wire: a message this node sent itself (JGroups hands those
            // up without serializing them, as merge leaders do with their own merge requests).
            return t == this;
        }
        Address from = msg.getSrc();
        if (from == null) {
            return fail(msg, "the message has no sender");
        }
        long now = System.currentTimeMillis();
        if (Math.abs(now - t.time) > WINDOW_MILLIS) {
            return fail(msg, "its proof is " + (now - t.time) / 1000 + " s old (clocks must agree within "
                    + WINDOW_MILLIS / 1000 + " s)");
        }
        if (!MessageDigest.isEqual(proof(key, from, t.time, t.nonce), t.mac)) {
            return fail(msg, "it does not hold this cluster's secret");
        }
        synchronized (seen) {
            for (Iterator<Long> it = seen.values().iterator(); it.hasNext(); ) {
                long at = it.next();
                if (now - at <= 2 * WINDOW_MILLIS && seen.size() < MAX_SEEN) {
                    break;
                }
                it.remove();
            }
            if (seen.putIfAbsent(ByteBuffer.wrap(t.nonce.clone()), now) != null) {
                return fail(msg, "its proof was used before (a replay)");
            }
        }
        return true;
    }

    private boolean fail(Message msg, String why) {
        lastFailure = msg.getSrc() + ": " + why;
        LOG.warn("cluster: refused {}: {}", msg.getSrc(), why);
        return false;
    }

    /** Why the last token was refused (tests and diagnostics). */
    String lastFailure() {
        return lastFailure;
    }

    static byte[] proof(byte[] key, Address sender, long time, byte[] nonce) {
        return ClusterSecurity.hmac(key, LABEL, addressBytes(sender), ByteBuffer.allocate(8).putLong(time).array(),
                nonce);
    }

    /** A stable binary form of an address: a UUID's 128 bits (its logical name is not part of it). */
    static byte[] addressBytes(Address a) {
        if (a instanceof UUID u) {
            return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits())
                    .array();
        }
        return a.toString().getBytes(StandardCharsets.UTF_8);
    }
}
