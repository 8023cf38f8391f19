package io.rocket.cluster;

import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.Header;
import org.jgroups.Message;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.EncryptHeader;
import org.jgroups.protocols.SYM_ENCRYPT;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.JoinRsp;
import org.jgroups.util.ByteArray;
import org.jgroups.util.MessageBatch;
import org.jgroups.util.Util;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Iterator;

/**
 * Protects every control message of a cluster with a secret: JGroups' SYM_ENCRYPT, always applied to the whole
 * message (addresses, flags, every protocol's header and the payload, as SERIALIZE would), so nothing of a message
 * travels unauthenticated. With encryption, the cipher is ChaCha20-Poly1305 (authenticated: a changed or forged
 * message is dropped, never decoded) with a fresh random 96-bit nonce per message; without, the message stays
 * readable and carries an HMAC-SHA256 tag. Keys are derived from the cluster secret, one per mode. The protocol sits
 * directly above discovery, so failure detection and merging are protected too; only discovery is not.
 *
 * <p>Two kinds of message go unprotected, so that a node with a wrong secret is told it was refused instead of
 * waiting in vain: a join request (AUTH's token in it proves the secret without revealing it) and a join refusal.
 * Coming in, an unprotected join request is accepted only from a non-member, and an unprotected join response only
 * if it is a refusal and nothing else. Everything else without a valid tag is dropped.
 *
 * <p>A join request goes unprotected only while this node is not a member. UNICAST3 numbers it like any other
 * message to its coordinator and sends it again until it is acknowledged: a second request sent while the coordinator
 * was still admitting the node on its first reaches the coordinator after the node became a member, is dropped there,
 * and unless a later copy gets through, that number is missing for good and every later message from the node to
 * the coordinator (all but the out-of-band ones) waits behind it forever. Once the node is a member its copies go out
 * protected, as everything else it sends, and fill the gap; the coordinator's GMS ignores a join from a member.
 */
final class ControlProtection extends SYM_ENCRYPT {
    /** JGroups names each protocol's headers by an id; ids from 1024 up are for protocols outside JGroups. */
    static final short PROTOCOL_ID = 1_701;

    static {
        ClassConfigurator.addProtocol(PROTOCOL_ID, ControlProtection.class);
    }

    private static final short GMS_ID = ClassConfigurator.getProtocolId(GMS.class);
    private static final byte FAIL_REASON_ONLY = 4; // JoinRsp's flags byte when it carries only a fail reason
    private static final int MAX_REFUSAL_BYTES = 2048;
    private static final int TAG = 32;
    /** The refusal a node with a secret gets from itself when the cluster it tries to join has none. */
    static final String OPEN_COORDINATOR = "the running cluster has no cluster secret";

    private final boolean encrypt;
    private final byte[] macKey;

    ControlProtection(ClusterSecurity security) {
        this.encrypt = security.encrypt();
        // Separate keys per mode: nodes that disagree about encryption cannot read each other at all.
        byte[] key = security.key(encrypt ? "jgroups encrypt" : "jgroups mac");
        setSecretKey(new SecretKeySpec(key, "ChaCha20")); // first: it resets the algorithm to the key's
        symAlgorithm("ChaCha20-Poly1305");
        symIvLength(12);
        this.macKey = encrypt ? null : key;
    }

    @Override
    public Object down(Message msg) {
        if (clearOutgoing(msg)) {
            return down_prot.down(msg);
        }
        return super.down(msg);
    }

    @Override
    public Object up(Message msg) {
        if (msg.getHeader(id) == null) {
            if (clearIncoming(msg)) {
                return up_prot.up(msg);
            }
            if (view == null && gmsType(msg) == GMS.GmsHeader.JOIN_RSP && msg.getSrc() != null) {
                // An unprotected welcome: the coordinator has no secret. Refuse to join it, now rather than after
                // every join attempt has timed out.
                return up_prot.up(new BytesMessage(local_addr).setSrc(msg.getSrc())
                        .putHeader(GMS_ID, new GMS.GmsHeader(GMS.GmsHeader.JOIN_RSP))
                        .setArray(GMS.marshal(new JoinRsp(OPEN_COORDINATOR))));
            }
            return null;
        }
        return super.up(msg);
    }

    /**
     * One by one, so that each message goes up under the sender authenticated inside it (a batch carries the
     * sender named in the clear packet header). Control traffic is light, so batching buys nothing here.
     */
    @Override
    public void up(MessageBatch batch) {
        for (Iterator<Message> it = batch.iterator(); it.hasNext(); ) {
            Message msg = it.next();
            it.remove();
            try {
                up(msg);
            } catch (RuntimeException e) {
                log.warn("%s: dropped a message from %s: %s", local_addr, batch.sender(), e);
            }
        }
    }

    /** The whole message, always (also when it has no payload), so that all of it is protected. */
    @Override
    protected Message encrypt(Message msg) throws Exception {
        if (msg.getSrc() == null) {
            msg.setSrc(local_addr);
        }
        ByteArray whole = Util.messageToBuffer(msg);
        byte[] iv = makeIv();
        Message out = new BytesMessage(msg.dest());
        out.setFlag(msg.getFlags(false), false, false);
        out.setFlag(msg.getFlags(true), true, false);
        out.putHeader(id, new EncryptHeader((byte) 0, symVersion(), iv).needsDeserialization(true));
        out.setArray(code(whole.array(), whole.offset(), whole.length(), iv, false));
        return out;
    }

    /** Only what {@link #encrypt} makes: anything else (no payload, a payload not to unwrap) is a forgery. */
    @Override
    protected Message _decrypt(Cipher cipher, Key key, Message msg, EncryptHeader hdr) throws Exception {
        if (!msg.hasPayload() || !hdr.needsDeserialization() || hdr.iv() == null || hdr.iv().length != 12) {
            return null;
        }
        return super._decrypt(null, key, msg, hdr);
    }

    /** As SYM_ENCRYPT's, without logging an error for every message of a node that was just refused. */
    @Override
    protected boolean inView(Address sender, String error) {
        return view == null || view.containsMember(sender);
    }

    @Override
    protected byte[] code(byte[] buf, int offset, int length, byte[] iv, boolean decode) throws Exception {
        if (encrypt) {
            return super.code(buf, offset, length, iv, decode);
        }
        if (!decode) {
            byte[] out = Arrays.copyOfRange(buf, offset, offset + length + TAG);
            System.arraycopy(tag(iv, buf, offset, length), 0, out, length, TAG);
            return out;
        }
        if (length < TAG || !MessageDigest.isEqual(tag(iv, buf, offset, length - TAG),
                Arrays.copyOfRange(buf, offset + length - TAG, offset + length))) {
            throw new GeneralSecurityException("control message with a bad authentication tag");
        }
        return Arrays.copyOfRange(buf, offset, offset + length - TAG);
    }

    private byte[] tag(byte[] iv, byte[] buf, int offset, int length) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(macKey, "HmacSHA256"));
        mac.update(iv);
        mac.update(buf, offset, length);
        return mac.doFinal();
    }

    private static byte gmsType(Message msg) {
        Header h = msg.getHeader(GMS_ID);
        return h instanceof GMS.GmsHeader g ? g.getType() : 0;
    }

    private boolean clearOutgoing(Message msg) {
        byte type = gmsType(msg);
        if (type == GMS.GmsHeader.JOIN_REQ || type == GMS.GmsHeader.JOIN_REQ_WITH_STATE_TRANSFER) {
            // Once a member, only UNICAST3 still sends a join request (again, as it is not acknowledged yet): the
            // coordinator drops an unprotected one from a member, and the gap it left would hold up all that follows.
            return view == null;
        }
        return type == GMS.GmsHeader.JOIN_RSP && isRefusal(msg);
    }

    private boolean clearIncoming(Message msg) {
        byte type = gmsType(msg);
        if (type == GMS.GmsHeader.JOIN_REQ || type == GMS.GmsHeader.JOIN_REQ_WITH_STATE_TRANSFER) {
            // A member never joins again; a "join" in a member's name could only meddle with its reliable channel.
            return msg.getSrc() != null && (view == null || !view.containsMember(msg.getSrc()));
        }
        return type == GMS.GmsHeader.JOIN_RSP && isRefusal(msg);
    }

    /** A join response that holds a fail reason and nothing else (no view, no digest to trust). */
    private static boolean isRefusal(Message msg) {
        // A join response is written as a non-null marker (1), then JoinRsp's flags byte.
        if (!msg.hasArray() || msg.getLength() < 2 || msg.getLength() > MAX_REFUSAL_BYTES
                || msg.getArray()[msg.getOffset()] != 1 || msg.getArray()[msg.getOffset() + 1] != FAIL_REASON_ONLY) {
            return false;
        }
        try {
            JoinRsp rsp = Util.streamableFromBuffer(JoinRsp::new, msg.getArray(), msg.getOffset(), msg.getLength());
            return rsp.getFailReason() != null && rsp.getView() == null && rsp.getDigest() == null;
        } catch (Exception e) {
            return false;
        }
    }
}
