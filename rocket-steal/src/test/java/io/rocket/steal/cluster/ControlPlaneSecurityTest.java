package io.rocket.steal.cluster;

import io.rocket.core.RocketException;
import org.jgroups.Address;
import org.jgroups.View;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The control plane of a cluster with a secret, over TCP on 127.0.0.1: members that hold the secret join and talk,
 * a node with another secret, another encryption setting or none is refused at join with "authentication failed",
 * garbage on the control port is dropped, and none of it disturbs the members.
 */
class ControlPlaneSecurityTest {

    static {
        System.setProperty("java.net.preferIPv4Stack", "true");
    }

    private static final byte[] SECRET = "correct horse battery staple 123".getBytes(StandardCharsets.UTF_8);

    /** A node that records what it receives. */
    private static final class Node implements ClusterChannel.Handler, AutoCloseable {
        final BlockingQueue<String> received = new LinkedBlockingQueue<>();
        final ClusterChannel channel;
        volatile View view;

        Node(ClusterOptions options) {
            channel = new ClusterChannel(options, this);
        }

        @Override
        public void onMessage(Address from, Wire.Kind kind, DataInputStream in) throws IOException {
            received.add(kind + ":" + in.readUTF());
        }

        @Override
        public void onView(View v) {
            view = v;
        }

        @Override
        public void close() {
            channel.close();
        }
    }

    private static List<InetSocketAddress> hosts(int count) throws IOException {
        List<InetSocketAddress> hosts = new ArrayList<>();
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int k = 0; k < count; k++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(s);
                hosts.add(new InetSocketAddress(InetAddress.getLoopbackAddress(), s.getLocalPort()));
            }
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
        return hosts;
    }

    private static ClusterOptions options(List<InetSocketAddress> hosts, int rank, ClusterSecurity security) {
        return new ClusterOptions(rank, hosts.size(), hosts, null, null, Duration.ofSeconds(10), true, 1,
                Duration.ofSeconds(2), true, ClusterOptions.AUTO_WINDOW, "", Faults.NONE, Duration.ofSeconds(3),
                security);
    }

    private static void exchange(Node a, Node b, String text) throws InterruptedException {
        a.channel.send(b.channel.self(), Wire.encode(Wire.Kind.REJECT, out -> out.writeUTF(text)));
        assertThat(b.received.poll(10, TimeUnit.SECONDS)).isEqualTo("REJECT:" + text);
    }

    @Test
    @Timeout(90)
    void secretHolders_joinAndTalk_othersAreRefusedWithAuthenticationFailed_andGarbageIsDropped() throws Exception {
        for (boolean encrypt : new boolean[]{true, false}) {
            ClusterSecurity security = new ClusterSecurity(SECRET, encrypt);
            // Ranks 0 and 1 are the members; the other host entries are where intruders bind.
            List<InetSocketAddress> hosts = hosts(2);
            try (Node zero = new Node(options(hosts, 0, security)); Node one = new Node(options(hosts, 1, security))) {
                zero.channel.connect(null);
                one.channel.connect(null);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while ((one.view == null || one.view.size() < 2) && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertThat(one.view.size()).as("encrypt %s", encrypt).isEqualTo(2);
                exchange(zero, one, "hello");

                byte[] wrong = SECRET.clone();
                wrong[0] ^= 1;
                for (ClusterSecurity intruder : List.of(new ClusterSecurity(wrong, encrypt), ClusterSecurity.NONE,
                        new ClusterSecurity(SECRET, !encrypt))) {
                    List<InetSocketAddress> withIntruder = new ArrayList<>(hosts);
                    withIntruder.set(1, hosts(1).get(0));
                    try (Node bad = new Node(options(withIntruder, 1, intruder))) {
                        assertThatThrownBy(() -> bad.channel.connect(null)).as("%s into encrypt=%s", intruder, encrypt)
                                .isInstanceOf(RocketException.class)
                                .hasMessageStartingWith("cluster: authentication failed: ")
                                .hasMessageNotContaining("\n");
                    }
                }

                Random random = new Random(7);
                for (int k = 0; k < 20; k++) {
                    try (Socket s = new Socket(hosts.get(0).getAddress(), hosts.get(0).getPort())) {
                        OutputStream out = s.getOutputStream();
                        byte[] junk = new byte[1 + random.nextInt(4000)];
                        random.nextBytes(junk);
                        if (k % 2 == 1) { // JGroups' connection cookie first, so the garbage gets further in
                            System.arraycopy(new byte[]{'b', 'e', 'l', 'a'}, 0, junk, 0, Math.min(4, junk.length));
                        }
                        out.write(junk);
                        out.flush();
                    } catch (IOException e) {
                        // the node may close on us mid-write: that is the point
                    }
                }
                exchange(one, zero, "still here");
                exchange(zero, one, "and here");
                assertThat(zero.channel.view().size()).isEqualTo(2);
                assertThat(one.channel.view().size()).isEqualTo(2);
            }
        }
    }
}
