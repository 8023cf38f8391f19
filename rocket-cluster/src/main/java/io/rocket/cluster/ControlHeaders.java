package io.rocket.cluster;

import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.AuthHeader;
import org.jgroups.protocols.EncryptHeader;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.FailureDetection;
import org.jgroups.protocols.FcHeader;
import org.jgroups.protocols.FragHeader;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.PingHeader;
import org.jgroups.protocols.TpHeader;
import org.jgroups.protocols.UnicastHeader3;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NakAckHeader2;
import org.jgroups.protocols.pbcast.STABLE;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The protocol headers a control frame may carry, and how each is laid out: exactly the headers of the protocols in
 * Rocket's stack ({@link ClusterChannel}), walked field by field as their {@code readFrom} reads them. JGroups decodes
 * every header of a frame in the transport, before any protection, and creates each by the class number the frame
 * names, so any of its dozens of header classes could be made to decode bytes from anyone; some size arrays by a
 * count inside them ({@code EncryptHeader}'s byte arrays), and AUTH's header instantiates any class named in it. A
 * frame with a header outside this table is refused.
 */
final class ControlHeaders {
    /** Each header's fields, read and checked: what its {@code readFrom} reads, not what it means. */
    private static final Map<Short, ControlFields.Part> LAYOUTS = new HashMap<>();

    static {
        add(TpHeader.class, f -> {
            short name = f.readShort();
            if (name > 0) {
                f.skip(name, "a cluster name");
            }
            if (f.readByte() > 0) {
                f.readInt();
            }
        });
        add(PingHeader.class, f -> {
            f.readByte();
            f.string();
            f.readBoolean();
        });
        add(MERGE3.MergeHeader.class, f -> {
            f.readByte();
            f.viewId();
            f.string();
            f.address();
        });
        add(FD_SOCK2.FdHeader.class, f -> {
            f.readByte();
            int members = f.readInt();
            if (members > 0) {
                f.bound(members, 1, "a failure-detection header of %d members");
                for (int k = 0; k < members; k++) {
                    f.address();
                }
            }
            f.string();
            f.address();
        });
        add(FailureDetection.HeartbeatHeader.class, f -> {
        });
        add(VERIFY_SUSPECT2.VerifyHeader.class, f -> {
            f.readShort();
            f.address();
        });
        add(NakAckHeader2.class, f -> {
            byte type = f.readByte();
            if (type == NakAckHeader2.MSG || type == NakAckHeader2.XMIT_RSP || type == NakAckHeader2.HIGHEST_SEQNO) {
                f.readLongCompressed();
            } else if (type == NakAckHeader2.XMIT_REQ) {
                f.address();
            }
        });
        add(UnicastHeader3.class, ControlHeaders::unicast);
        add(STABLE.StableHeader.class, f -> {
            f.readByte();
            f.viewId();
        });
        add(AuthHeader.class, ControlHeaders::authToken);
        add(GMS.GmsHeader.class, f -> {
            f.readByte();
            short flags = f.readShort();
            f.address();
            if ((flags & 4) == 4) { // a merge id: its creator and a number
                f.address();
                f.readInt();
            }
        });
        add(FcHeader.class, ControlFields::readByte);
        add(FragHeader.class, f -> {
            f.readLongCompressed();
            f.readIntCompressed();
            f.readIntCompressed();
            f.readBoolean();
            f.readShort();
        });
        add(EncryptHeader.class, f -> {
            f.readByte();
            f.readBoolean();
            f.byteBuffer("a key version");
            f.address();
            f.byteBuffer("an initialization vector");
        });
    }

    private ControlHeaders() {
    }

    private static void add(Class<?> header, ControlFields.Part layout) {
        LAYOUTS.put(ClassConfigurator.getMagicNumber(header), layout);
    }

    /** The magic number of the discovery header, whose messages carry a list of members as their payload. */
    static final short DISCOVERY = ClassConfigurator.getMagicNumber(PingHeader.class);

    /** Reads one header (its class number, then its fields); refuses one outside the table. */
    static short read(ControlFields f) throws IOException {
        short magic = f.readShort();
        ControlFields.Part layout = LAYOUTS.get(magic);
        if (layout == null) {
            throw new ControlFields.Refused("a header of kind " + magic
                    + ", which no protocol of Rocket's cluster sends");
        }
        layout.read(f);
        return magic;
    }

    private static void unicast(ControlFields f) throws IOException {
        switch (f.readByte()) {
            case UnicastHeader3.DATA -> {
                f.readLongCompressed();
                f.readShort();
                f.readBoolean();
            }
            case UnicastHeader3.ACK -> {
                f.readLongCompressed();
                f.readShort();
                f.readIntCompressed();
            }
            case UnicastHeader3.SEND_FIRST_SEQNO -> f.readIntCompressed();
            case UnicastHeader3.CLOSE -> f.readShort();
            default -> {
                // XMIT_REQ and unknown types: no fields
            }
        }
    }

    /**
     * AUTH's token: JGroups would load and instantiate whatever class the frame names. Only Rocket's own token (sent
     * by name: it has no class number) and no token at all pass; the token's bytes are of a fixed size.
     */
    private static void authToken(ControlFields f) throws IOException {
        if (f.readByte() == 0) {
            return;
        }
        short magic = f.readShort();
        if (magic >= 0) {
            throw new ControlFields.Refused("an authentication token of kind " + magic
                    + ", which no node of Rocket sends");
        }
        if (!ClusterAuthToken.class.getName().equals(f.readUTF())) {
            throw new ControlFields.Refused("an authentication token of a class no node of Rocket sends");
        }
        f.skip(ClusterAuthToken.WIRE_BYTES, "an authentication token");
    }
}
