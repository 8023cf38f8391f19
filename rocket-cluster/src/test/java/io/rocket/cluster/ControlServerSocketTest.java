package io.rocket.cluster;

import org.jgroups.Version;
import org.jgroups.stack.IpAddress;
import org.jgroups.util.ByteArrayDataOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ControlServerSocket} on 127.0.0.1: a connection whose opening arrived is handed on with its opening intact,
 * while connections that send nothing wait on their own threads; past the per-address cap, more are closed at once.
 */
class ControlServerSocketTest {

    private static byte[] opening(int port) throws Exception {
        IpAddress claimed = new IpAddress("127.0.0.1", port);
        ByteArrayDataOutputStream out = new ByteArrayDataOutputStream();
        out.write(new byte[]{'b', 'e', 'l', 'a'});
        out.writeShort(Version.version);
        out.writeShort(claimed.serializedSize());
        claimed.writeTo(out);
        return Arrays.copyOf(out.buffer(), out.position());
    }

    private static boolean closedByPeer(Socket s) throws IOException {
        s.setSoTimeout(20_000);
        InputStream in = s.getInputStream();
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @Test
    @Timeout(60)
    void silentConnectionsWaitApart_pastTheCapTheyAreClosed_andAnOpenedConnectionIsHandedOnIntact() throws Exception {
        BlockingQueue<String> refusals = new LinkedBlockingQueue<>();
        List<Socket> silent = new ArrayList<>();
        try (ControlServerSocket server = new ControlServerSocket(refusals::add)) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            for (int k = 0; k < ControlServerSocket.MAX_WAITING_PER_SOURCE; k++) {
                Socket s = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                s.getOutputStream().write(new byte[]{'b', 'e'});
                silent.add(s);
            }
            Socket opened = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
            silent.add(opened);
            // Past the cap: refused at once, which says so.
            String refusal = refusals.poll(10, TimeUnit.SECONDS);
            assertThat(refusal).contains("too many connections waiting to open");
            assertThat(closedByPeer(opened)).isTrue();

            // Once the silent ones are closed at their deadline, an opened connection is handed on, opening intact.
            for (Socket s : silent) {
                assertThat(closedByPeer(s)).isTrue();
            }
            byte[] opening = opening(4321);
            try (Socket peer = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
                peer.getOutputStream().write(opening);
                peer.getOutputStream().write(new byte[]{1, 2, 3});
                try (Socket accepted = server.accept()) {
                    byte[] got = accepted.getInputStream().readNBytes(opening.length + 3);
                    byte[] expected = Arrays.copyOf(opening, opening.length + 3);
                    expected[opening.length] = 1;
                    expected[opening.length + 1] = 2;
                    expected[opening.length + 2] = 3;
                    assertThat(got).isEqualTo(expected);
                }
            }
        } finally {
            for (Socket s : silent) {
                s.close();
            }
        }
    }
}
