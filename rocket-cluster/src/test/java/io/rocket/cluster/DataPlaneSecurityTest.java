package io.rocket.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The data plane's handshake and encryption on 127.0.0.1: bytes arrive unchanged in every mode (frames larger than
 * one encrypted record included), a node with another secret or mode and a rank that is not a member are refused,
 * and garbage connections are closed quickly without disturbing a transfer under way.
 */
class DataPlaneSecurityTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final byte[] SECRET = "data plane test secret, 32 bytes".getBytes(StandardCharsets.UTF_8);

    /** Receives frames into fresh buffers and hands them over when complete. */
    private static final class Receiver implements DataPlane.Sink {
        final Map<Long, ByteBuffer> open = new ConcurrentHashMap<>();
        final BlockingQueue<Object[]> done = new LinkedBlockingQueue<>();

        @Override
        public ByteBuffer begin(long requestId, int item, long length) {
            ByteBuffer b = ByteBuffer.allocateDirect((int) length);
            open.put(requestId, b);
            return b;
        }

        @Override
        public void end(long requestId, int hop, long length, boolean ok) {
            done.add(new Object[]{requestId, open.remove(requestId), length, ok});
        }

        /** The bytes of the next frame, or null if none completes in time or it broke. */
        byte[] next(long seconds) throws InterruptedException {
            Object[] d = done.poll(seconds, TimeUnit.SECONDS);
            if (d == null || !(Boolean) d[3]) {
                return null;
            }
            ByteBuffer b = (ByteBuffer) d[1];
            byte[] bytes = new byte[(int) (long) d[2]];
            b.duplicate().clear().get(bytes);
            return bytes;
        }
    }

    private static final DataPlane.Sink NOWHERE = new DataPlane.Sink() {
        @Override
        public ByteBuffer begin(long requestId, int item, long length) {
            return null;
        }

        @Override
        public void end(long requestId, int hop, long length, boolean ok) {
        }
    };

    private static ByteBuffer data(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return ByteBuffer.allocateDirect(length).put(bytes).clear();
    }

    private static byte[] bytes(ByteBuffer b, int length) {
        byte[] out = new byte[length];
        b.duplicate().clear().get(out);
        return out;
    }

    /** Sends one frame and waits until the sender has written it (or given up). */
    private static void send(DataPlane from, DataPlane to, long id, ByteBuffer data, int length)
            throws InterruptedException {
        CountDownLatch sent = new CountDownLatch(1);
        from.send(to.address(), id, 7, 1, data, length, sent::countDown);
        assertThat(sent.await(20, TimeUnit.SECONDS)).isTrue();
    }

    /**
     * What a capture of the wire shows: item bytes sent through a relay that records them are in plain sight in an open
     * cluster and in a secret-only one (authenticated, not hidden, as the security page says), and nowhere with
     * {@code --cluster-encrypt}; every mode still delivers them unchanged.
     */
    @Test
    @Timeout(60)
    void aCapture_seesItemBytes_unlessEncrypted() throws Exception {
        byte[] marker = "rocket item bytes a capture must not see".getBytes(StandardCharsets.UTF_8);
        int length = 100_000;
        ByteBuffer data = ByteBuffer.allocateDirect(length);
        while (data.hasRemaining()) {
            data.put(marker, 0, Math.min(marker.length, data.remaining()));
        }
        data.clear();
        for (ClusterSecurity security : List.of(ClusterSecurity.NONE, new ClusterSecurity(SECRET, false),
                new ClusterSecurity(SECRET, true))) {
            Receiver receiver = new Receiver();
            try (DataPlane in = new DataPlane(LOOPBACK, receiver, security, 0, r -> r == 1);
                 DataPlane out = new DataPlane(LOOPBACK, NOWHERE, security, 1, r -> true);
                 RecordingRelay relay = new RecordingRelay(in.address())) {
                CountDownLatch sent = new CountDownLatch(1);
                out.send(relay.address(), 1, 7, 1, data, length, sent::countDown);
                assertThat(sent.await(20, TimeUnit.SECONDS)).isTrue();
                assertThat(receiver.next(20)).as("%s", security).isEqualTo(bytes(data, length));
                byte[] captured = relay.captured();
                assertThat(captured.length).as("%s", security).isGreaterThan(length);
                assertThat(indexOf(captured, marker) >= 0).as("item bytes visible, %s", security)
                        .isEqualTo(!security.encrypt());
            }
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int k = 0; k < needle.length; k++) {
                if (haystack[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** A TCP relay on 127.0.0.1 that forwards to {@code target} and records what the connecting side sends. */
    private static final class RecordingRelay implements AutoCloseable {
        private final java.net.ServerSocket server = new java.net.ServerSocket(0, 8, LOOPBACK);
        private final java.io.ByteArrayOutputStream sent = new java.io.ByteArrayOutputStream();
        private final List<java.net.Socket> sockets = new java.util.concurrent.CopyOnWriteArrayList<>();

        RecordingRelay(InetSocketAddress target) throws java.io.IOException {
            Thread accept = new Thread(() -> {
                try {
                    while (true) {
                        java.net.Socket client = server.accept();
                        java.net.Socket upstream = new java.net.Socket(target.getAddress(), target.getPort());
                        sockets.add(client);
                        sockets.add(upstream);
                        pump(client, upstream, true);
                        pump(upstream, client, false);
                    }
                } catch (java.io.IOException e) {
                    // closed
                }
            }, "recording-relay");
            accept.setDaemon(true);
            accept.start();
        }

        private void pump(java.net.Socket from, java.net.Socket to, boolean record) {
            Thread t = new Thread(() -> {
                byte[] buffer = new byte[8192];
                try {
                    for (int n; (n = from.getInputStream().read(buffer)) > 0; ) {
                        if (record) {
                            synchronized (sent) {
                                sent.write(buffer, 0, n);
                            }
                        }
                        to.getOutputStream().write(buffer, 0, n);
                    }
                } catch (java.io.IOException e) {
                    // a side closed
                }
            }, "recording-relay-pump");
            t.setDaemon(true);
            t.start();
        }

        InetSocketAddress address() {
            return new InetSocketAddress(LOOPBACK, server.getLocalPort());
        }

        byte[] captured() {
            synchronized (sent) {
                return sent.toByteArray();
            }
        }

        @Override
        public void close() throws java.io.IOException {
            server.close();
            for (java.net.Socket s : sockets) {
                s.close();
            }
        }
    }

    @Test
    @Timeout(60)
    void everyMode_deliversTheBytesUnchanged() throws Exception {
        int large = SealedRecords.CHUNK * 2 + 12345; // three records of body when encrypted
        for (ClusterSecurity security : List.of(ClusterSecurity.NONE, new ClusterSecurity(SECRET, false),
                new ClusterSecurity(SECRET, true))) {
            Receiver receiver = new Receiver();
            try (DataPlane in = new DataPlane(LOOPBACK, receiver, security, 0, r -> r == 1);
                 DataPlane out = new DataPlane(LOOPBACK, NOWHERE, security, 1, r -> true)) {
                for (int length : new int[]{0, 1, 1000, large}) {
                    ByteBuffer data = data(large, length);
                    send(out, in, length, data, length);
                    assertThat(receiver.next(20)).as("%s, %d bytes", security, length).isEqualTo(bytes(data, length));
                }
                assertThat(in.refusedConnections()).isZero();
                assertThat(in.bytesReceived()).isEqualTo(out.bytesSent());
            }
        }
    }

    @Test
    @Timeout(60)
    void wrongSecret_otherMode_andNonMembers_areRefused_membersStillGetThrough() throws Exception {
        byte[] wrong = SECRET.clone();
        wrong[5] ^= 0x40;
        ClusterSecurity secured = new ClusterSecurity(SECRET, true);
        IntPredicate onlyRankOne = r -> r == 1;
        Receiver receiver = new Receiver();
        try (DataPlane in = new DataPlane(LOOPBACK, receiver, secured, 0, onlyRankOne)) {
            // rank 2 is not a member; the others claim rank 1 without the right secret or mode
            Object[][] intruders = {
                    {new ClusterSecurity(wrong, true), 1}, {new ClusterSecurity(SECRET, false), 1},
                    {ClusterSecurity.NONE, 1}, {secured, 2}};
            for (Object[] intruder : intruders) {
                try (DataPlane out = new DataPlane(LOOPBACK, NOWHERE, (ClusterSecurity) intruder[0], (int) intruder[1],
                        r -> true)) {
                    send(out, in, 1, data(100, 1), 100);
                    assertThat(out.bytesSent()).as("%s as rank %s", intruder[0], intruder[1]).isZero();
                }
            }
            assertThat(receiver.done.poll(200, TimeUnit.MILLISECONDS)).as("nothing reached the sink").isNull();
            assertThat(in.refusedConnections()).isEqualTo(intruders.length);
            try (DataPlane member = new DataPlane(LOOPBACK, NOWHERE, secured, 1, r -> true)) {
                ByteBuffer data = data(5000, 9);
                send(member, in, 2, data, 5000);
                assertThat(receiver.next(20)).isEqualTo(bytes(data, 5000));
            }
        }
        // The other way round: a node that does not hold the secret cannot pose as the receiving side either.
        try (DataPlane in = new DataPlane(LOOPBACK, receiver, new ClusterSecurity(wrong, false), 0, r -> true);
             DataPlane out = new DataPlane(LOOPBACK, NOWHERE, new ClusterSecurity(SECRET, false), 1, r -> true)) {
            send(out, in, 3, data(100, 3), 100);
            assertThat(out.bytesSent()).isZero();
        }
    }

    @Test
    @Timeout(60)
    void garbageConnections_areClosedQuickly_whileATransferGoesThrough() throws Exception {
        for (ClusterSecurity security : List.of(new ClusterSecurity(SECRET, true), ClusterSecurity.NONE)) {
            Receiver receiver = new Receiver();
            try (DataPlane in = new DataPlane(LOOPBACK, receiver, security, 0, r -> r == 1);
                 DataPlane out = new DataPlane(LOOPBACK, NOWHERE, security, 1, r -> true)) {
                in.handshakeTimeoutMillis(1000); // short, yet long enough for the real handshake on a busy machine
                InetSocketAddress address = in.address();
                Random random = new Random(11);
                // A silent connection and a slow one: both cut off by the handshake timeout.
                Socket silent = new Socket(address.getAddress(), address.getPort());
                Socket slow = new Socket(address.getAddress(), address.getPort());
                slow.getOutputStream().write(DataHandshake.MAGIC);
                int length = SealedRecords.CHUNK + 77;
                ByteBuffer data = data(length, 5);
                CountDownLatch sent = new CountDownLatch(1);
                out.send(address, 42, 7, 1, data, length, sent::countDown);
                for (int k = 0; k < 40; k++) {
                    try (Socket s = new Socket(address.getAddress(), address.getPort())) {
                        byte[] junk = new byte[1 + random.nextInt(3000)];
                        random.nextBytes(junk);
                        if (k % 3 == 0) { // a good start, then garbage
                            System.arraycopy(DataHandshake.MAGIC, 0, junk, 0, Math.min(4, junk.length));
                        }
                        s.getOutputStream().write(junk);
                        s.setSoTimeout(2000);
                        drain(s.getInputStream()); // the data plane closes it (the read ends) rather than hang
                    } catch (IOException e) {
                        // reset by the data plane: also closed
                    }
                }
                assertThat(receiver.next(20)).as("%s", security).isEqualTo(bytes(data, length));
                assertThat(sent.await(10, TimeUnit.SECONDS)).isTrue();
                for (Socket s : List.of(silent, slow)) {
                    s.setSoTimeout(3000);
                    assertThat(drainClosed(s)).as("closed by the handshake timeout").isTrue();
                    s.close();
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (in.refusedConnections() < 42 && System.nanoTime() < deadline) {
                    Thread.sleep(10); // the count follows the close by a moment
                }
                assertThat(in.refusedConnections()).isGreaterThanOrEqualTo(42);
                // and later transfers are unaffected
                send(out, in, 43, data, 1000);
                assertThat(receiver.next(20)).isEqualTo(bytes(data, 1000));
            }
        }
    }

    @Test
    @Timeout(30)
    void aRefusedConnection_isNamedByItsRemoteAddress_alsoWhenTheDeadlineClosedIt() throws Exception {
        try (DataPlane in = new DataPlane(LOOPBACK, NOWHERE, ClusterSecurity.NONE, 0, r -> true)) {
            in.handshakeTimeoutMillis(200);
            InetSocketAddress address = in.address();
            try (Socket silent = new Socket(address.getAddress(), address.getPort())) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (in.refusedConnections() < 1 && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                assertThat(in.lastRefusal()).isEqualTo("data plane: refused a connection from "
                        + silent.getLocalSocketAddress() + ": no handshake within 200 ms");
            }
            try (Socket garbage = new Socket(address.getAddress(), address.getPort())) {
                garbage.getOutputStream().write(new byte[64]);
                garbage.setSoTimeout(5000);
                try {
                    drain(garbage.getInputStream());
                } catch (IOException e) {
                    // reset by the data plane: also closed
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (in.refusedConnections() < 2 && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                assertThat(in.lastRefusal()).startsWith("data plane: refused a connection from "
                        + garbage.getLocalSocketAddress() + ": ");
            }
        }
    }

    private static void drain(InputStream in) throws IOException {
        byte[] buffer = new byte[512];
        while (in.read(buffer) >= 0) {
            // the reply to a bad handshake, if any
        }
    }

    private static boolean drainClosed(Socket s) {
        try {
            drain(s.getInputStream());
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @Test
    @Timeout(30)
    void aTamperedRecord_breaksTheConnection_andTheFrameEndsNotOk() throws Exception {
        ClusterSecurity security = new ClusterSecurity(SECRET, true);
        Receiver receiver = new Receiver();
        try (DataPlane in = new DataPlane(LOOPBACK, receiver, security, 0, r -> true)) {
            // Play the connecting side by hand: a correct handshake, then a header record with one bit flipped.
            try (Socket s = new Socket(LOOPBACK, in.address().getPort())) {
                s.setSoTimeout(5000);
                OutputStream o = s.getOutputStream();
                InputStream i = s.getInputStream();
                byte[] nonce = new byte[DataHandshake.NONCE];
                ByteBuffer hello = ByteBuffer.allocate(DataHandshake.HELLO_BYTES).put(DataHandshake.MAGIC)
                        .put(DataHandshake.VERSION).put(DataHandshake.flags(security)).putInt(1).put(nonce);
                o.write(hello.array());
                byte[] reply = i.readNBytes(DataHandshake.REPLY_BYTES);
                assertThat(reply[4]).isEqualTo(DataHandshake.OK);
                byte[] serverNonce = java.util.Arrays.copyOfRange(reply, 5, 5 + DataHandshake.NONCE);
                o.write(DataHandshake.proof(security.key("data auth"), "client", hello.array(), serverNonce));
                assertThat(i.read()).isEqualTo(DataHandshake.OK);
                byte[] record = new byte[FrameHeader.BYTES + SealedRecords.TAG];
                new Random(1).nextBytes(record);
                o.write(record);
                o.flush();
                assertThat(i.read()).as("the receiver hangs up").isEqualTo(-1);
            }
            assertThat(receiver.done.poll(200, TimeUnit.MILLISECONDS)).isNull();
        }
    }
}
