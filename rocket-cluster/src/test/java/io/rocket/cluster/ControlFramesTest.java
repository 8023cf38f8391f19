package io.rocket.cluster;

import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.Header;
import org.jgroups.LongMessage;
import org.jgroups.ViewId;
import org.jgroups.protocols.AuthHeader;
import org.jgroups.protocols.EncryptHeader;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.FailureDetection;
import org.jgroups.protocols.FcHeader;
import org.jgroups.protocols.FragHeader;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.PingData;
import org.jgroups.protocols.PingHeader;
import org.jgroups.protocols.TpHeader;
import org.jgroups.protocols.UnicastHeader3;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NakAckHeader2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.util.ExtendedUUID;
import org.jgroups.util.MergeId;
import org.jgroups.util.MutableDigest;
import org.jgroups.util.SeqnoList;
import org.jgroups.util.UUID;
import org.jgroups.EmptyMessage;
import org.jgroups.Message;
import org.jgroups.NioMessage;
import org.jgroups.ObjectMessage;
import org.jgroups.stack.IpAddress;
import org.jgroups.util.ByteArrayDataOutputStream;
import org.jgroups.util.Util;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ControlFrames} against frames written by JGroups itself: valid ones pass, and a length or count inside
 * one that says more than the frame holds is refused, naming it, before anything is allocated for it.
 */
class ControlFramesTest {
    private static final int LIE = 300_000_000;

    private static byte[] bytes(ByteArrayDataOutputStream out) {
        return Arrays.copyOf(out.buffer(), out.position());
    }

    private static String check(byte[] frame) {
        return ControlFrames.check(frame, frame.length);
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    private static byte[] single(Message msg) throws Exception {
        ByteArrayDataOutputStream out = new ByteArrayDataOutputStream();
        Util.writeMessage(msg, out, false);
        return bytes(out);
    }

    @Test
    void framesJGroupsWrites_pass() throws Exception {
        IpAddress a = new IpAddress("127.0.0.1", 7800);
        IpAddress b = new IpAddress("127.0.0.1", 7801);
        assertThat(check(single(new BytesMessage(a, "hello".getBytes(StandardCharsets.UTF_8)).setSrc(b)))).isNull();
        assertThat(check(single(new BytesMessage(a, new byte[70_000])))).isNull();
        assertThat(check(single(new EmptyMessage(a)))).isNull();
        assertThat(check(single(new NioMessage(a, ByteBuffer.wrap(new byte[100]))))).isNull();
        assertThat(check(single(new ObjectMessage(a, new SeqnoList(200, 1000).add(1003, 1100, 1199))))).isNull();
        assertThat(check(single(new ObjectMessage(a, new MutableDigest(new Address[]{a, b}).set(a, 4, 9)
                .set(b, 100_000, 100_007))))).isNull();
        assertThat(check(single(new LongMessage(a, 123_456_789L)))).isNull();
        ByteArrayDataOutputStream out = new ByteArrayDataOutputStream();
        List<Message> list = List.of(new BytesMessage(a, new byte[10]), new EmptyMessage(a),
                new BytesMessage(a, new byte[3]));
        Util.writeMessageList(a, b, "rocket".getBytes(StandardCharsets.US_ASCII), list, out, false);
        assertThat(check(bytes(out))).isNull();
    }

    /** One message with every header of Rocket's stack in each of its forms, as JGroups writes them. */
    @Test
    void everyHeaderOfTheStack_asJGroupsWritesIt_passes() throws Exception {
        IpAddress a = new IpAddress("127.0.0.1", 7800);
        UUID u = UUID.randomUUID();
        ViewId view = new ViewId(u, 7);
        List<Header> headers = List.of(new TpHeader("rocket"), new PingHeader(PingHeader.GET_MBRS_REQ)
                        .clusterName("rocket").initialDiscovery(true), MERGE3.MergeHeader.createInfo(view, "node-1", a),
                MERGE3.MergeHeader.createViewRequest(), new FD_SOCK2.FdHeader((byte) 1).mbrs(List.of(u, UUID.randomUUID()))
                        .cluster("rocket").serverAddress(a), new FailureDetection.HeartbeatHeader(),
                NakAckHeader2.createMessageHeader(1L << 40), NakAckHeader2.createXmitRequestHeader(u),
                NakAckHeader2.createXmitResponseHeader(), NakAckHeader2.createHighestSeqnoHeader(99),
                UnicastHeader3.createDataHeader(5, (short) 2, true), UnicastHeader3.createAckHeader(5, (short) 2, 77),
                UnicastHeader3.createSendFirstSeqnoHeader(3), UnicastHeader3.createXmitReqHeader(),
                UnicastHeader3.createCloseHeader((short) 4), new STABLE.StableHeader((byte) 1, view),
                new STABLE.StableHeader((byte) 2, null), new AuthHeader(new ClusterAuthToken()),
                new GMS.GmsHeader(GMS.GmsHeader.JOIN_REQ, u), new GMS.GmsHeader(GMS.GmsHeader.MERGE_REQ)
                        .mergeId(MergeId.create(u)), new FcHeader((byte) 1), new FragHeader(3, 1, 4),
                new EncryptHeader((byte) 1, new byte[]{1, 2, 3}, new byte[12]).server(u));
        short id = 1;
        for (Header h : headers) {
            Message msg = new BytesMessage(a, new byte[5]).putHeader(id++, h);
            assertThat(check(single(msg))).as(h.toString()).isNull();
        }
    }

    @Test
    void aDiscoveryList_asTheDiscoveryProtocolWritesIt_passes_andALyingCountIsRefused() throws Exception {
        IpAddress a = new IpAddress("127.0.0.1", 7800);
        ByteArrayDataOutputStream list = new ByteArrayDataOutputStream();
        List<PingData> members = List.of(new PingData(UUID.randomUUID(), true, "node-0", a).coord(true)
                .mbrs(List.of(UUID.randomUUID(), UUID.randomUUID())), new PingData(UUID.randomUUID(), false));
        list.writeInt(members.size());
        for (PingData d : members) {
            d.writeTo(list);
        }
        byte[] payload = bytes(list);
        Message msg = new BytesMessage(a, payload).putHeader((short) 2, new PingHeader(PingHeader.GET_MBRS_RSP));
        assertThat(check(single(msg))).isNull();

        putInt(payload, 0, LIE); // JGroups' discovery would make a list of that capacity first
        Message lying = new BytesMessage(a, payload).putHeader((short) 2, new PingHeader(PingHeader.GET_MBRS_RSP));
        assertThat(check(single(lying))).startsWith("a discovery list of " + LIE + " members");
    }

    @Test
    void whatNoNodeOfRocketSends_isRefused() throws Exception {
        IpAddress a = new IpAddress("127.0.0.1", 7800);
        assertThat(check(single(new ObjectMessage(a, "an object")))).startsWith("an object payload of kind");
        assertThat(check(single(new BytesMessage(a, new byte[1]).putHeader((short) 9,
                new org.jgroups.protocols.COMPRESS.CompressHeader(3))))).startsWith("a header of kind");
        assertThat(check(single(new BytesMessage(a, new byte[1]).setSrc(new ExtendedUUID(1, 2)))))
                .startsWith("an address of kind");
        // AUTH's header names the class of its token (or its number), and JGroups would load and instantiate it
        assertThat(check(single(new BytesMessage(a, new byte[1]).putHeader((short) 9,
                new AuthHeader(new ForeignToken()))))).isEqualTo(
                        "an authentication token of a class no node of Rocket sends");
        assertThat(check(single(new BytesMessage(a, new byte[1]).putHeader((short) 9,
                new AuthHeader(new org.jgroups.auth.FixedMembershipToken()))))).startsWith(
                        "an authentication token of kind");
    }

    @Test
    void countsInsideHeadersAndObjects_beyondTheFrame_areRefused() throws Exception {
        IpAddress a = new IpAddress("127.0.0.1", 7800);
        byte[] encrypted = single(new BytesMessage(a, new byte[0]).putHeader((short) 9,
                new EncryptHeader((byte) 1, new byte[4], new byte[12])));
        int version = indexOf(encrypted, new byte[]{1, 0, 0, 0, 4}) + 1; // the key version's presence byte, length
        putInt(encrypted, version, LIE);
        assertThat(check(encrypted)).startsWith("a key version of " + LIE + " bytes");

        byte[] list = single(new ObjectMessage(a, new SeqnoList(64, 0).add(1)));
        int size = indexOf(list, new byte[]{0, 0, 0, 64});
        putInt(list, size, Integer.MAX_VALUE);
        assertThat(check(list)).startsWith("a retransmission list of 33554432 words");
    }

    /** A token class of no number, sent by its name as Rocket's own is. */
    public static final class ForeignToken extends org.jgroups.auth.AuthToken {
        @Override
        public String getName() {
            return getClass().getName();
        }

        @Override
        public boolean authenticate(org.jgroups.auth.AuthToken token, Message msg) {
            return true;
        }

        @Override
        public int size() {
            return 0;
        }

        @Override
        public void writeTo(java.io.DataOutput out) {
        }

        @Override
        public void readFrom(java.io.DataInput in) {
        }
    }

    private static int indexOf(byte[] in, byte[] what) {
        for (int k = 0; k + what.length <= in.length; k++) {
            if (Arrays.equals(in, k, k + what.length, what, 0, what.length)) {
                return k;
            }
        }
        throw new AssertionError("not found");
    }

    @Test
    void aPayloadLengthBeyondTheFrame_isRefused() throws Exception {
        byte[] frame = single(new BytesMessage(new IpAddress("127.0.0.1", 7800), new byte[0]));
        putInt(frame, frame.length - Integer.BYTES, LIE);
        assertThat(check(frame)).isEqualTo("a payload of " + LIE + " bytes in a frame with 0 bytes left");

        byte[] nio = single(new NioMessage(new IpAddress("127.0.0.1", 7800), ByteBuffer.wrap(new byte[0])));
        putInt(nio, nio.length - Integer.BYTES, LIE);
        assertThat(check(nio)).startsWith("a payload of " + LIE + " bytes");

        byte[] cut = single(new BytesMessage(null, new byte[100]));
        assertThat(check(Arrays.copyOf(cut, cut.length - 1))).startsWith("a payload of 100 bytes in a frame with 99");
    }

    @Test
    void aBatchCountBeyondTheFrame_isRefused() throws Exception {
        IpAddress a = new IpAddress("127.0.0.1", 7800);
        ByteArrayDataOutputStream out = new ByteArrayDataOutputStream();
        Util.writeMessageListHeader(a, a, "rocket".getBytes(StandardCharsets.US_ASCII), LIE, out, false);
        Message one = new BytesMessage(a, new byte[4]);
        out.writeShort(one.getType());
        one.writeToNoAddrs(a, out);
        String refusal = check(bytes(out));
        assertThat(refusal).startsWith("a batch of " + LIE + " messages in a frame with");
    }

    @Test
    void garbage_isRefusedAsUnreadable_andShortFramesAreLeftToJGroups() {
        byte[] garbage = new byte[64];
        Arrays.fill(garbage, (byte) 0x7f);
        garbage[0] = 0;
        garbage[1] = 0; // not a compatible version: JGroups drops it itself
        assertThat(check(garbage)).isNull();
        assertThat(check(new byte[2])).isNull();
        garbage[0] = (byte) (org.jgroups.Version.version >> 8);
        garbage[1] = (byte) org.jgroups.Version.version;
        assertThat(check(garbage)).isNotNull();
    }
}
