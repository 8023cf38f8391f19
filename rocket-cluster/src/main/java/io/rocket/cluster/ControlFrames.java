package io.rocket.cluster;

import org.jgroups.EmptyMessage;
import org.jgroups.Message;
import org.jgroups.MessageFactory;
import org.jgroups.Version;
import org.jgroups.protocols.TP;
import org.jgroups.util.ByteArrayDataInputStream;
import org.jgroups.util.Util;

import java.io.DataInput;
import java.io.IOException;

/**
 * Checks a control-plane frame, read off the socket into an array of exactly its length, before JGroups decodes it:
 * every length and count inside it that JGroups would allocate for (a message's payload, a fragment, the messages of
 * a batch or of a composite message) must fit in the bytes the frame still holds. JGroups allocates what such a
 * length says before it reads the bytes, so a 47-byte frame whose payload length says 300,000,000 would otherwise
 * take 300 MB of heap, below authentication. The check decodes addresses and headers as JGroups does (they are
 * small and bounded) but skips payloads instead of copying them.
 */
final class ControlFrames {
    /** Nested composite messages deeper than this are refused (JGroups' own senders nest one level at most). */
    private static final int MAX_DEPTH = 4;

    private ControlFrames() {
    }

    /** Thrown when a length inside a frame says more than the frame holds. */
    static final class BeyondFrame extends IOException {
        BeyondFrame(String what) {
            super(what);
        }
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
        try {
            short version = in.readShort();
            if (!Version.isBinaryCompatible(version)) {
                return null; // JGroups drops it without decoding
            }
            byte flags = in.readByte();
            if ((flags & TP.LIST) == TP.LIST) {
                Util.readAddress(in);
                Util.readAddress(in);
                short name = in.readShort();
                if (name > 0) {
                    skip(in, name, "a cluster name");
                }
                int count = in.readInt();
                bound(in, count, "a batch of %d messages");
                for (int k = 0; k < count; k++) {
                    message(in, 0);
                }
            } else {
                message(in, 0);
            }
            return null;
        } catch (BeyondFrame e) {
            return e.getMessage();
        } catch (Exception e) {
            return "an unreadable frame (" + e.getClass().getSimpleName() + ")";
        }
    }

    private static void message(ByteArrayDataInputStream in, int depth) throws Exception {
        short type = in.readShort();
        switch (type) {
            case Message.BYTES_MSG, Message.FRAG_MSG, Message.NIO_MSG, Message.EMPTY_MSG, Message.COMPOSITE_MSG -> {
                if (type == Message.COMPOSITE_MSG && depth >= MAX_DEPTH) {
                    throw new BeyondFrame("composite messages nested more than " + MAX_DEPTH + " deep");
                }
                new Probe(type, in, depth).readFrom(in);
            }
            default -> MessageFactory.create(type).readFrom(in); // small fixed payloads, or objects of our own stack
        }
    }

    /** Refuses a length or count that says more than the bytes left in the frame. */
    private static void bound(ByteArrayDataInputStream in, int n, String what) throws BeyondFrame {
        int left = in.limit() - in.position();
        if (n < 0 || n > left) {
            throw new BeyondFrame(String.format(what, n) + " in a frame with " + left + " bytes left");
        }
    }

    private static void skip(ByteArrayDataInputStream in, int n, String what) throws BeyondFrame {
        bound(in, n, what + " of %d bytes");
        in.skipBytes(n); // all of them: the bound holds
    }

    /**
     * Reads a message's addresses, flags and headers as JGroups does (the message's own decoding), and its payload
     * without keeping it: each length checked against the bytes left, then skipped.
     */
    private static final class Probe extends EmptyMessage {
        private final short type;
        private final ByteArrayDataInputStream frame;
        private final int depth;

        Probe(short type, ByteArrayDataInputStream frame, int depth) {
            this.type = type;
            this.frame = frame;
            this.depth = depth;
        }

        @Override
        public void readPayload(DataInput in) throws IOException {
            switch (type) {
                case Message.BYTES_MSG, Message.FRAG_MSG -> {
                    int n = in.readInt();
                    if (n > 0) {
                        skip(frame, n, "a payload");
                    }
                }
                case Message.NIO_MSG -> {
                    in.readBoolean();
                    int n = in.readInt();
                    if (n > 0) {
                        skip(frame, n, "a payload");
                    }
                }
                case Message.COMPOSITE_MSG -> {
                    int count = in.readInt();
                    bound(frame, count, "a composite of %d messages");
                    for (int k = 0; k < count; k++) {
                        try {
                            message(frame, depth + 1);
                        } catch (IOException e) {
                            throw e;
                        } catch (Exception e) {
                            throw new IOException(e);
                        }
                    }
                }
                default -> {
                    // an empty message: no payload
                }
            }
        }
    }
}
