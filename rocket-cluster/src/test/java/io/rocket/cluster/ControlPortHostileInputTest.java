package io.rocket.cluster;

import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.EmptyMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Version;
import org.jgroups.View;
import org.jgroups.protocols.EncryptHeader;
import org.jgroups.protocols.PingHeader;
import org.jgroups.stack.IpAddress;
import org.jgroups.util.ByteArrayDataOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an unauthenticated peer can do to a secret cluster's control port (JGroups over TCP on 127.0.0.1) before
 * authentication: a tiny frame whose payload length says 300,000,000 allocates nothing and is refused, naming itself;
 * and connections that open but never send their opening do not stop a cluster from forming.
 */
class ControlPortHostileInputTest {

    static {
        System.setProperty("java.net.preferIPv4Stack", "true");
    }

    private static final byte[] SECRET = "correct horse battery staple 123".getBytes(StandardCharsets.UTF_8);
    private static final int LIE = 300_000_000;

    private static ClusterOptions options(List<InetSocketAddress> hosts, int rank, Duration joinTimeout) {
        return ClusterOptions.builder(rank, hosts.size()).hosts(hosts).joinTimeout(joinTimeout)
                .l3Timeout(Duration.ofSeconds(2)).failureTimeout(Duration.ofSeconds(3))
                .security(new ClusterSecurity(SECRET, false)).build();
    }

    private static void exchange(RecordingNode a, RecordingNode b, String text) throws InterruptedException {
        a.channel.send(b.channel.self(), Wire.encode(Wire.Kind.REJECT, out -> out.writeUTF(text)));
        assertThat(b.received.poll(10, TimeUnit.SECONDS)).isEqualTo("REJECT:" + text);
    }

    private static boolean awaitViewSize(RecordingNode node, int size, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            View v = node.view;
            if (v != null && v.size() == size) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    /** JGroups' connection opening: its cookie, its version and the address the peer says it has. */
    private static byte[] opening(int claimedPort) throws Exception {
        IpAddress claimed = new IpAddress("127.0.0.1", claimedPort);
        ByteArrayDataOutputStream out = new ByteArrayDataOutputStream();
        out.write(new byte[]{'b', 'e', 'l', 'a'});
        out.writeShort(Version.version);
        out.writeShort(claimed.serializedSize());
        claimed.writeTo(out);
        return java.util.Arrays.copyOf(out.buffer(), out.position());
    }

    /**
     * One JGroups frame (length prefix included) holding one message as JGroups writes it, with the four bytes at
     * {@code lengthAt} (counted from the end of the message when negative) changed to say {@link #LIE}.
     */
    private static byte[] lyingFrame(Message msg, int lengthAt) throws Exception {
        ByteArrayDataOutputStream frame = new ByteArrayDataOutputStream();
        frame.writeShort(Version.version);
        frame.writeByte(0); // one message, unicast
        frame.writeShort(msg.getType());
        msg.writeTo(frame);
        byte[] body = java.util.Arrays.copyOf(frame.buffer(), frame.position());
        int at = lengthAt < 0 ? body.length + lengthAt : lengthAt;
        body[at] = (byte) (LIE >>> 24);
        body[at + 1] = (byte) (LIE >>> 16);
        body[at + 2] = (byte) (LIE >>> 8);
        body[at + 3] = (byte) LIE;
        ByteArrayDataOutputStream out = new ByteArrayDataOutputStream();
        out.writeInt(body.length);
        out.write(body);
        return java.util.Arrays.copyOf(out.buffer(), out.position());
    }

    /** Where the first occurrence of {@code what} starts in the message JGroups writes for {@code msg}, framed. */
    private static int offsetIn(Message msg, byte[] what) throws Exception {
        ByteArrayDataOutputStream out = new ByteArrayDataOutputStream();
        out.writeShort(Version.version);
        out.writeByte(0);
        out.writeShort(msg.getType());
        msg.writeTo(out);
        byte[] b = java.util.Arrays.copyOf(out.buffer(), out.position());
        for (int k = 0; k + what.length <= b.length; k++) {
            if (java.util.Arrays.equals(b, k, k + what.length, what, 0, what.length)) {
                return k;
            }
        }
        throw new AssertionError("not in the message");
    }

    /**
     * Lying frames of a few dozen bytes, each naming what JGroups would allocate for it before reading: a payload
     * length, the key version inside SYM_ENCRYPT's header, and the member count of a discovery list.
     */
    private static Map<String, byte[]> lyingFrames() throws Exception {
        Map<String, byte[]> frames = new LinkedHashMap<>();
        frames.put("a payload of " + LIE + " bytes", lyingFrame(new BytesMessage(null, new byte[0]), -Integer.BYTES));
        Message encrypted = new EmptyMessage(null).putHeader(ControlProtection.PROTOCOL_ID,
                new EncryptHeader((byte) 1, new byte[]{9, 9, 9, 9}, new byte[12]));
        frames.put("a key version of " + LIE + " bytes",
                lyingFrame(encrypted, offsetIn(encrypted, new byte[]{0, 0, 0, 4, 9, 9, 9, 9})));
        Message discovery = new BytesMessage(null, new byte[]{0, 0, 0, 0}).putHeader((short) 1,
                new PingHeader(PingHeader.GET_MBRS_RSP));
        frames.put("a discovery list of " + LIE + " members", lyingFrame(discovery, -Integer.BYTES));
        return frames;
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int k = 0; k < 3; k++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    /** Reads until the node closes the connection; false if it is still open after a generous wait. */
    private static boolean closedByPeer(Socket s) throws IOException {
        s.setSoTimeout(20_000);
        InputStream in = s.getInputStream();
        try {
            while (in.read() >= 0) {
                // whatever the node sends before closing
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    @Test
    @Timeout(120)
    void aFrameWhosePayloadLengthSaysMoreThanItHolds_allocatesNothing_isRefusedAndNamed() throws Exception {
        List<InetSocketAddress> hosts = RecordingNode.freeHosts(2);
        Duration join = Duration.ofSeconds(20);
        try (RecordingNode zero = new RecordingNode(options(hosts, 0, join)); RecordingNode one = new RecordingNode(options(hosts, 1, join))) {
            zero.channel.connect(null);
            one.channel.connect(null);
            assertThat(awaitViewSize(one, 2, join)).as("cluster formed").isTrue();
            exchange(zero, one, "hello");
            ControlTransport transport = zero.protocol(ControlTransport.class);
            long refusedBefore = transport.refused();
            assertThat(refusedBefore).as("frames of the cluster itself refused").isZero();
            Map<String, byte[]> frames = lyingFrames();
            long before = usedHeapAfterGc();
            List<Socket> attackers = new ArrayList<>();
            try {
                int k = 0;
                for (Map.Entry<String, byte[]> lie : frames.entrySet()) {
                    Socket s = new Socket(hosts.get(0).getAddress(), hosts.get(0).getPort());
                    attackers.add(s);
                    OutputStream out = s.getOutputStream();
                    out.write(opening(1 + k++)); // one connection per claimed address: JGroups keeps one
                    out.write(lie.getValue());
                    out.flush();
                    assertThat(closedByPeer(s)).as("the node closed the connection").isTrue();
                    assertThat(transport.lastRefusal()).as(lie.getKey()).contains(lie.getKey())
                            .contains("127.0.0.1").doesNotContain("\n");
                }
                long after = usedHeapAfterGc();
                System.out.printf("used heap after GC: %.1f MB before, %.1f MB after %d hostile frames%n",
                        before / 1e6, after / 1e6, frames.size());
                assertThat(after - before).as("heap growth in bytes").isLessThan(32L << 20);
            } finally {
                for (Socket s : attackers) {
                    s.close();
                }
            }
            assertThat(transport.refused() - refusedBefore).isEqualTo(frames.size());
            exchange(one, zero, "still here");
            exchange(zero, one, "and here");
            assertThat(zero.channel.view().size()).isEqualTo(2);
        }
    }

    @Test
    @Timeout(120)
    void fortyHalfOpenConnectionsOnRankZerosPort_duringTheJoin_theClusterStillForms() throws Exception {
        List<InetSocketAddress> hosts = RecordingNode.freeHosts(3);
        Duration join = Duration.ofSeconds(30);
        List<Socket> halfOpen = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<RecordingNode> nodes = new ArrayList<>();
        try {
            for (int rank = 0; rank < 3; rank++) {
                nodes.add(new RecordingNode(options(hosts, rank, join)));
            }
            List<Future<?>> joins = new ArrayList<>();
            joins.add(pool.submit(() -> nodes.get(0).channel.connect(null)));
            InetSocketAddress zero = hosts.get(0);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (halfOpen.size() < 40) {
                try {
                    Socket s = new Socket(zero.getAddress(), zero.getPort());
                    s.getOutputStream().write(new byte[]{'b', 'e'});
                    s.getOutputStream().flush();
                    halfOpen.add(s);
                } catch (IOException e) {
                    assertThat(System.nanoTime()).as("rank 0's port opens").isLessThan(deadline);
                    Thread.sleep(10); // rank 0 is not listening yet
                }
            }
            joins.add(pool.submit(() -> nodes.get(1).channel.connect(null)));
            joins.add(pool.submit(() -> nodes.get(2).channel.connect(null)));
            for (RecordingNode n : nodes) {
                assertThat(awaitViewSize(n, 3, join)).as("a view of 3 within the join timeout").isTrue();
            }
            for (Future<?> f : joins) {
                f.get(join.toMillis(), TimeUnit.MILLISECONDS);
            }
            exchange(nodes.get(1), nodes.get(0), "formed");
            exchange(nodes.get(0), nodes.get(2), "formed too");
            assertThat(closedByPeer(halfOpen.get(0))).as("a connection that never opened is closed").isTrue();
            assertThat(nodes.get(0).protocol(ControlTransport.class).lastRefusal()).contains("sent no opening");
        } finally {
            for (Socket s : halfOpen) {
                s.close();
            }
            nodes.forEach(RecordingNode::close);
            pool.shutdownNow();
        }
    }

    /**
     * Everything a working cluster sends passes the control port's check: three nodes in each security mode form,
     * exchange messages, and see one of them leave, and no node refuses a frame.
     */
    @Test
    @Timeout(180)
    void theFramesOfWorkingClusters_inEveryMode_areNeverRefused() throws Exception {
        for (ClusterSecurity security : List.of(new ClusterSecurity(SECRET, true), new ClusterSecurity(SECRET, false),
                ClusterSecurity.NONE)) {
            List<InetSocketAddress> hosts = RecordingNode.freeHosts(3);
            Duration join = Duration.ofSeconds(30);
            List<RecordingNode> nodes = new ArrayList<>();
            try {
                for (int rank = 0; rank < 3; rank++) {
                    RecordingNode n = new RecordingNode(ClusterOptions.builder(rank, 3).hosts(hosts).joinTimeout(join)
                            .l3Timeout(Duration.ofSeconds(2)).failureTimeout(Duration.ofSeconds(3))
                            .security(security).build());
                    nodes.add(n);
                    n.channel.connect(null);
                }
                for (RecordingNode n : nodes) {
                    assertThat(awaitViewSize(n, 3, join)).as("a view of 3").isTrue();
                }
                for (RecordingNode from : nodes) {
                    for (RecordingNode to : nodes) {
                        if (from != to) {
                            exchange(from, to, "x".repeat(60_000)); // fragmented by FRAG4
                        }
                    }
                }
                nodes.remove(2).close();
                assertThat(awaitViewSize(nodes.get(0), 2, join)).as("a view of 2 after a leave").isTrue();
                exchange(nodes.get(1), nodes.get(0), "after the leave");
                for (RecordingNode n : nodes) {
                    assertThat(n.protocol(ControlTransport.class).refused()).as(security + ": " + n.protocol(ControlTransport.class).lastRefusal()).isZero();
                }
                long delivered = 0;
                for (RecordingNode n : nodes) {
                    delivered += n.protocol(ControlLiveness.class).delivered();
                }
                assertThat(delivered).as("%s: liveness messages FD_SOCK2 handled without an error", security)
                        .isPositive();
            } finally {
                nodes.forEach(RecordingNode::close);
            }
        }
    }

    /**
     * FD_SOCK2's own port, outside the transport: a length prefix of 300,000,000 closes the connection without
     * allocating it, and a message with a header no node of Rocket sends is dropped with a refusal line.
     */
    @Test
    @Timeout(120)
    void theLivenessPort_boundsMessageLengths_andChecksHeaders() throws Exception {
        List<InetSocketAddress> hosts = RecordingNode.freeHosts(2);
        Duration join = Duration.ofSeconds(20);
        try (RecordingNode zero = new RecordingNode(options(hosts, 0, join)); RecordingNode one = new RecordingNode(options(hosts, 1, join))) {
            zero.channel.connect(null);
            one.channel.connect(null);
            assertThat(awaitViewSize(one, 2, join)).as("cluster formed").isTrue();
            ControlTransport transport = zero.protocol(ControlTransport.class);
            int port = zero.protocol(ControlLiveness.class).port();
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                OutputStream out = s.getOutputStream();
                out.write(opening(1));
                out.write(new byte[]{(byte) (LIE >>> 24), (byte) (LIE >>> 16), (byte) (LIE >>> 8), (byte) LIE});
                out.flush();
                assertThat(closedByPeer(s)).as("a length beyond the liveness port's limit closes").isTrue();
            }
            Message foreign = new EmptyMessage(null).putHeader((short) 9,
                    new org.jgroups.protocols.COMPRESS.CompressHeader(3));
            ByteArrayDataOutputStream body = new ByteArrayDataOutputStream();
            foreign.writeTo(body);
            long refusedBefore = transport.refused();
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                OutputStream out = s.getOutputStream();
                out.write(opening(2));
                ByteArrayDataOutputStream framed = new ByteArrayDataOutputStream();
                framed.writeInt(body.position());
                framed.write(body.buffer(), 0, body.position());
                out.write(framed.buffer(), 0, framed.position());
                out.flush();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (transport.refused() == refusedBefore && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
            }
            assertThat(transport.refused() - refusedBefore).isEqualTo(1);
            assertThat(transport.lastRefusal()).startsWith("cluster: liveness port: refused a header of kind");
            exchange(zero, one, "still here");
        }
    }
}
