package io.rocket.cluster;

import org.jgroups.Message;
import org.jgroups.Version;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.TP;
import org.jgroups.util.Bits;
import org.jgroups.util.ByteArrayDataInputStream;
import org.jgroups.util.Digest;
import org.jgroups.util.MutableDigest;
import org.jgroups.util.SeqnoList;

import java.io.IOException;

/**
 * Checks a control-plane frame, read off the socket into an array of exactly its length, before JGroups decodes it.
 * JGroups decodes a whole frame in its transport, below every protection: it allocates what each length and count
 * inside says before reading the bytes, and creates addresses, headers, message payloads and tokens of whatever
 * class a number (or a name) in the frame picks. So the frame is walked first against the schema of what Rocket's
 * stack sends: the message kinds its protocols use, the headers of its protocols ({@link ControlHeaders}), the
 * address kinds its nodes have ({@link ControlFields}), the objects its reliable-delivery and stability protocols
 * send, and the member lists of discovery, whose payload the discovery protocol decodes below the protection too.
 * Every length and count must fit in the bytes the frame still holds; nothing is allocated for one.
 */
final class ControlFrames {
    /** Nested composite messages deeper than this are refused (JGroups' own senders nest one level at most). */
    private static final int MAX_DEPTH = 4;
    /** The fewest bytes of a message in a batch or a composite: its kind, leading byte, flags and header count. */
    private static final int MIN_MESSAGE = 7;
    /** The fewest bytes of a header: its protocol id and its class number. */
    private static final int MIN_HEADER = 4;
    /** The fewest bytes of a discovery entry: two null addresses, flags, a null name, no member list. */
    private static final int MIN_PING_DATA = 6;
    private static final byte DEST_SET = 1;
    private static final byte SRC_SET = 2;
    private static final short SEQNO_LIST = ClassConfigurator.getMagicNumber(SeqnoList.class);
    private static final short DIGEST = ClassConfigurator.getMagicNumber(Digest.class);
    private static final short MUTABLE_DIGEST = ClassConfigurator.getMagicNumber(MutableDigest.class);

    private ControlFrames() {
    }

    /**
     * Null when the frame may go on to JGroups (also when JGroups will drop it for a reason of its own: another
     * version, too short); otherwise why it is refused.
     */
    static String check(byte[] frame, int length) {
        if (length < Short.BYTES + 1) {
            return null; // JGroups ignores it
        }
        ByteArrayDataInputStream in = new ByteArrayDataInputStream(frame, 0, length);
        ControlFields f = new ControlFields(in);
        try {
            short version = in.readShort();
            if (!Version.isBinaryCompatible(version)) {
                return null; // JGroups drops it without decoding
            }
            byte flags = in.readByte();
            if ((flags & TP.LIST) == TP.LIST) {
                f.address();
                f.address();
                short name = in.readShort();
                if (name > 0) {
                    f.skip(name, "a cluster name");
                }
                int count = in.readInt();
                f.bound(count, MIN_MESSAGE, "a batch of %d messages");
                for (int k = 0; k < count; k++) {
                    message(f, 0);
                }
            } else {
                message(f, 0);
            }
            return null;
        } catch (ControlFields.Refused e) {
            return e.getMessage();
        } catch (Exception e) {
            return "an unreadable frame (" + e.getClass().getSimpleName() + ")";
        }
    }

    /**
     * Null when a bare message of no payload (as FD_SOCK2 sends on its own port, without a frame around it) may go on
     * to JGroups; otherwise why it is refused.
     */
    static String checkEmptyMessage(byte[] message, int offset, int length) {
        ControlFields f = new ControlFields(new ByteArrayDataInputStream(message, offset, length));
        try {
            body(f, Message.EMPTY_MSG, 0);
            return null;
        } catch (ControlFields.Refused e) {
            return e.getMessage();
        } catch (Exception e) {
            return "an unreadable message (" + e.getClass().getSimpleName() + ")";
        }
    }

    /** A message as {@code Util.readMessage} reads it: its kind, then its envelope, headers and payload. */
    private static void message(ControlFields f, int depth) throws IOException {
        body(f, f.readShort(), depth);
    }

    private static void body(ControlFields f, short type, int depth) throws IOException {
        byte leading = f.readByte();
        f.readShort(); // flags
        if ((leading & DEST_SET) != 0) {
            f.address();
        }
        if ((leading & SRC_SET) != 0) {
            f.address();
        }
        short headers = f.readShort();
        f.bound(headers, MIN_HEADER, "a message with %d headers");
        boolean discovery = false;
        for (int k = 0; k < headers; k++) {
            f.readShort(); // the protocol's id
            discovery |= ControlHeaders.read(f) == ControlHeaders.DISCOVERY;
        }
        payload(f, type, discovery, depth);
    }

    private static void payload(ControlFields f, short type, boolean discovery, int depth) throws IOException {
        switch (type) {
            case Message.BYTES_MSG, Message.FRAG_MSG -> bytes(f, discovery);
            case Message.NIO_MSG -> {
                f.readBoolean();
                bytes(f, false);
            }
            case Message.EMPTY_MSG -> {
                // no payload
            }
            case Message.LONG_MSG -> f.readLongCompressed();
            case Message.OBJ_MSG -> object(f);
            case Message.COMPOSITE_MSG -> {
                if (depth >= MAX_DEPTH) {
                    throw new ControlFields.Refused("composite messages nested more than " + MAX_DEPTH + " deep");
                }
                int count = f.readInt();
                f.bound(count, MIN_MESSAGE, "a composite of %d messages");
                for (int k = 0; k < count; k++) {
                    message(f, depth + 1);
                }
            }
            default -> throw new ControlFields.Refused("a message of kind " + type
                    + ", which no protocol of Rocket's cluster sends");
        }
    }

    /** A payload of bytes; a discovery message's is the list of members the discovery protocol will decode. */
    private static void bytes(ControlFields f, boolean discovery) throws IOException {
        int n = f.readInt();
        if (n <= 0) {
            return;
        }
        f.bound(n, 1, "a payload of %d bytes");
        if (discovery) {
            f.within(n, ControlFrames::discoveryList);
        } else {
            f.skip(n, "a payload");
        }
    }

    /** The members a discovery message lists, as {@code Discovery.deserialize} and {@code PingData} read them. */
    private static void discoveryList(ControlFields f) throws IOException {
        int count = f.readInt();
        f.bound(count, MIN_PING_DATA, "a discovery list of %d members");
        for (int k = 0; k < count; k++) {
            f.address(); // the sender
            f.readByte(); // flags
            f.string(); // its logical name
            f.address(); // its physical address
            f.addresses("a discovery entry");
        }
    }

    /**
     * An object payload as {@code Util.readSizeStreamable} reads it: only the retransmission lists and digests that
     * reliable delivery and stability send, by class number; JGroups would create any class a number or name picks.
     */
    private static void object(ControlFields f) throws IOException {
        if (f.readByte() == 0) {
            return;
        }
        short magic = f.readShort();
        if (magic == SEQNO_LIST) {
            int size = f.readInt();
            f.readLong();
            long words = size == 0 ? 0 : ((size - 1L) >> 6) + 1; // SeqnoList: one long per 64 numbers
            f.bound(size < 0 ? -1 : words, Long.BYTES, "a retransmission list of %d words");
            f.skip(words * Long.BYTES, "a retransmission list");
        } else if (magic == DIGEST || magic == MUTABLE_DIGEST) {
            short members = f.readShort();
            if (members < 0) {
                throw new ControlFields.Refused("a digest without members");
            }
            f.bound(members, 1, "a digest of %d members");
            for (int k = 0; k < members; k++) {
                f.address();
            }
            long[] pair = new long[2]; // a fixed pair: nothing sized by the frame
            for (int k = 0; k < members; k++) {
                f.longSequence(pair);
            }
        } else {
            throw new ControlFields.Refused("an object payload of kind " + magic
                    + ", which no protocol of Rocket's cluster sends");
        }
    }
}
