package io.rocket.cluster;

import org.jgroups.BytesMessage;
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
        assertThat(check(single(new ObjectMessage(a, "an object")))).isNull();
        ByteArrayDataOutputStream out = new ByteArrayDataOutputStream();
        List<Message> list = List.of(new BytesMessage(a, new byte[10]), new EmptyMessage(a),
                new BytesMessage(a, new byte[3]));
        Util.writeMessageList(a, b, "rocket".getBytes(StandardCharsets.US_ASCII), list, out, false);
        assertThat(check(bytes(out))).isNull();
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
