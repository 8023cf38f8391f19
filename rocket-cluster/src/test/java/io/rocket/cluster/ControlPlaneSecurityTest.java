package io.rocket.cluster;

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
        return ClusterOptions.builder(rank, hosts.size()).hosts(hosts).joinTimeout(Duration.ofSeconds(10))
                .l3Timeout(Duration.ofSeconds(2)).failureTimeout(Duration.ofSeconds(3)).security(security).build();
    }

    private static void exchange(Node a, Node b, String text) throws InterruptedException {
        a.channel.send(b.channel.self(), Wire.encode(Wire.Kind.REJECT, out -> out.writeUTF(text)));
        assertThat(b.received.poll(10, TimeUnit.SECONDS)).isEqualTo("REJECT:" + text);
    }

    private static void awaitViewSize(Node node, int size) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while ((node.view == null || node.view.size() != size) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(node.view.size()).as("view of %s", node.view).isEqualTo(size);
    }

    /**
     * Makes a node quick to give up looking for others and quick to merge, so partitions form and heal in a test's
     * time (the production settings wait seconds for both). Reaches into the channel: tests only.
     */
    private static Node quick(Node node) throws ReflectiveOperationException {
        java.lang.reflect.Field f = ClusterChannel.class.getDeclaredField("channel");
        f.setAccessible(true);
        org.jgroups.stack.ProtocolStack stack = ((org.jgroups.JChannel) f.get(node.channel)).getProtocolStack();
        org.jgroups.protocols.pbcast.GMS gms = stack.findProtocol(org.jgroups.protocols.pbcast.GMS.class);
        gms.setJoinTimeout(300).setMergeTimeout(1000);
        org.jgroups.protocols.MERGE3 merge = stack.findProtocol(org.jgroups.protocols.MERGE3.class);
        merge.setMinInterval(200).setMaxInterval(500).setCheckInterval(800);
        return node;
    }

    /**
     * What a node with {@code security} gets when it tries to join as a third rank (listing the members, so that its
     * discovery finds their coordinator). On a loaded machine the members may not answer its discovery in time, and
     * it then starts a cluster of its own instead of asking to join: that attempt proves nothing, so it tries again.
     */
    private static Throwable refusal(List<InetSocketAddress> hosts, ClusterSecurity security) throws IOException {
        for (int attempt = 0; attempt < 3; attempt++) {
            List<InetSocketAddress> withIntruder = new ArrayList<>(hosts);
            withIntruder.add(hosts(1).get(0));
            try (Node bad = new Node(options(withIntruder, 2, security))) {
                try {
                    bad.channel.connect(null);
                } catch (RocketException e) {
                    return e;
                }
            }
        }
        return null;
    }

    private static ClusterSecurity wrongSecret(boolean encrypt) {
        byte[] wrong = SECRET.clone();
        wrong[0] ^= 1;
        return new ClusterSecurity(wrong, encrypt);
    }

    @Test
    @Timeout(90)
    void secretHolders_joinAndTalk_othersAreRefusedWithAuthenticationFailed_andGarbageIsDropped() throws Exception {
        ClusterSecurity security = new ClusterSecurity(SECRET, false);
        List<InetSocketAddress> hosts = hosts(2);
        try (Node zero = new Node(options(hosts, 0, security)); Node one = new Node(options(hosts, 1, security))) {
            zero.channel.connect(null);
            one.channel.connect(null);
            awaitViewSize(one, 2);
            exchange(zero, one, "hello");

            for (ClusterSecurity intruder : List.of(wrongSecret(false), ClusterSecurity.NONE,
                    new ClusterSecurity(SECRET, true))) {
                assertThat(refusal(hosts, intruder)).as("%s", intruder).isInstanceOf(RocketException.class)
                        .hasMessageStartingWith("cluster: authentication failed: ")
                        .hasMessageNotContaining("\n");
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

    /**
     * Partitions merge only with nodes that hold the secret: a coordinator alone on one side finds two more alone
     * on the other (started without knowing it), one with the secret, which merges in, and one with another secret
     * and one with none, which stay apart. With encryption, so that merging through encrypted messages is tested.
     */
    @Test
    @Timeout(90)
    void partitionsMerge_onlyWithSecretHolders() throws Exception {
        ClusterSecurity security = new ClusterSecurity(SECRET, true);
        List<InetSocketAddress> hosts = hosts(4);
        try (Node a = quick(new Node(options(hosts, 0, security)))) {
            a.channel.connect(null); // alone: nobody else is up yet
            List<Node> others = List.of(quick(new Node(options(List.of(hosts.get(1)), 0, security))),
                    quick(new Node(options(List.of(hosts.get(2)), 0, wrongSecret(true)))),
                    quick(new Node(options(List.of(hosts.get(3)), 0, ClusterSecurity.NONE))));
            try {
                java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(3);
                try {
                    List<java.util.concurrent.Future<?>> starts = new ArrayList<>();
                    for (Node n : others) { // each alone, as it knows only itself
                        starts.add(pool.submit(() -> n.channel.connect(null)));
                    }
                    starts.get(0).get();
                    for (java.util.concurrent.Future<?> f : starts.subList(1, 3)) {
                        try {
                            f.get();
                        } catch (java.util.concurrent.ExecutionException e) {
                            // Still looking for others when the merge protocol's discovery reached it, it tried to
                            // join and was refused: as good as staying apart.
                            assertThat(e.getCause()).hasMessageStartingWith("cluster: authentication failed: ");
                        }
                    }
                } finally {
                    pool.shutdown();
                }
                awaitViewSize(a, 2);
                assertThat(a.view.getMembers()).containsExactlyInAnyOrder(a.channel.self(), others.get(0).channel.self());
                // A merge round takes every coordinator it found at once; give a later round a chance too.
                Thread.sleep(1000);
                assertThat(a.channel.view().size()).isEqualTo(2);
                for (Node apart : others.subList(1, 3)) {
                    View v = apart.channel.view();
                    assertThat(v == null ? 1 : v.size()).isEqualTo(1);
                }
                exchange(a, others.get(0), "merged");
            } finally {
                others.forEach(Node::close);
            }
        }
    }
}
