package io.rocket.cluster;

import io.rocket.core.RocketException;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.Header;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.View;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.UnicastHeader3;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.stack.Protocol;
import org.jgroups.stack.ProtocolStack;
import org.jgroups.util.MessageBatch;
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
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
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
    private static ClusterOptions options(List<InetSocketAddress> hosts, int rank, ClusterSecurity security) {
        return ClusterOptions.builder(rank, hosts.size()).hosts(hosts).joinTimeout(Duration.ofSeconds(10))
                .l3Timeout(Duration.ofSeconds(2)).failureTimeout(Duration.ofSeconds(3)).security(security).build();
    }

    private static void exchange(RecordingNode a, RecordingNode b, String text) throws InterruptedException {
        a.channel.send(b.channel.self(), Wire.encode(Wire.Kind.REJECT, out -> out.writeUTF(text)));
        assertThat(b.received.poll(10, TimeUnit.SECONDS)).isEqualTo("REJECT:" + text);
    }

    private static void awaitViewSize(RecordingNode node, int size) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while ((node.view == null || node.view.size() != size) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(node.view.size()).as("view of %s", node.view).isEqualTo(size);
    }

    /** The node's JGroups stack. Reaches into the channel: tests only. */
    private static ProtocolStack stack(RecordingNode node) throws ReflectiveOperationException {
        java.lang.reflect.Field f = ClusterChannel.class.getDeclaredField("channel");
        f.setAccessible(true);
        return ((JChannel) f.get(node.channel)).getProtocolStack();
    }

    /**
     * Directly below the coordinator's {@link ControlProtection}: holds a joiner's first JOIN request until the joiner
     * has sent a second one (its first wait for an answer ran out), then lets the first through, and the second only
     * once the first has made the joiner a member: what a coordinator too slow to answer within the joiner's first
     * wait sees on a loaded machine. Copies UNICAST3 sends again are treated the same; a request this protocol cannot
     * read (a protected one) goes through untouched.
     */
    private static final class LateSecondJoin extends Protocol {
        private static final short GMS_ID = ClassConfigurator.getProtocolId(GMS.class);
        private static final short UNICAST_ID = ClassConfigurator.getProtocolId(UNICAST3.class);
        /** Counted down when the second request has been handed to ControlProtection. */
        final CountDownLatch secondPassed = new CountDownLatch(1);
        private volatile View view;
        private Message first; // guarded by this
        private boolean secondSeen; // guarded by this

        @Override
        public Object down(Event evt) {
            if (evt.getType() == Event.VIEW_CHANGE) {
                view = evt.getArg();
            }
            return down_prot.down(evt);
        }

        @Override
        public Object up(Message msg) {
            return takeJoin(msg, msg.getSrc()) ? null : up_prot.up(msg);
        }

        @Override
        public void up(MessageBatch batch) {
            for (Iterator<Message> it = batch.iterator(); it.hasNext(); ) {
                Message msg = it.next();
                if (takeJoin(msg, msg.getSrc() != null ? msg.getSrc() : batch.sender())) {
                    it.remove();
                }
            }
            if (!batch.isEmpty()) {
                up_prot.up(batch);
            }
        }

        /** Whether {@code msg} is a readable JOIN request, which this protocol then passes on itself (or drops). */
        private boolean takeJoin(Message msg, Address from) {
            Header h = msg.getHeader(GMS_ID);
            if (!(h instanceof GMS.GmsHeader g) || g.getType() != GMS.GmsHeader.JOIN_REQ || from == null) {
                return false;
            }
            msg.setSrc(from);
            Header u = msg.getHeader(UNICAST_ID);
            long seqno = u instanceof UnicastHeader3 uh ? uh.seqno() : 0;
            Message release = null;
            synchronized (this) {
                if (seqno <= 1 && !secondSeen) {
                    if (first == null) {
                        first = msg; // copies sent again meanwhile are dropped: the held one goes through
                    }
                    return true;
                }
                if (seqno > 1 && !secondSeen) {
                    secondSeen = true;
                    release = first;
                }
            }
            if (release != null) {
                up_prot.up(release);
            }
            if (seqno <= 1) {
                up_prot.up(msg);
                return true;
            }
            Thread late = new Thread(() -> {
                while (view == null || !view.containsMember(from)) {
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                up_prot.up(msg);
                secondPassed.countDown();
            }, "late-join-request");
            late.setDaemon(true);
            late.start();
            return true;
        }
    }

    /**
     * A JOIN request that reaches the coordinator after its sender was admitted (the joiner asked again while its
     * first request was still being handled) leaves nothing behind: what the new member sends the coordinator, and
     * the coordinator sends it, still arrives. JGroups' reliable unicasts number the JOIN request like any other
     * message; were that number never delivered, every later message from the new member would wait for it forever.
     */
    @Test
    @Timeout(90)
    void aJoinRequestArrivingAfterItsSenderWasAdmitted_leavesItsLaterMessagesFlowing() throws Exception {
        for (boolean encrypt : new boolean[]{false, true}) {
            ClusterSecurity security = new ClusterSecurity(SECRET, encrypt);
            List<InetSocketAddress> hosts = RecordingNode.freeHosts(2);
            try (RecordingNode zero = new RecordingNode(options(hosts, 0, security)); RecordingNode one = new RecordingNode(options(hosts, 1, security))) {
                LateSecondJoin late = new LateSecondJoin();
                stack(zero).insertProtocol(late, ProtocolStack.Position.BELOW, ControlProtection.class);
                zero.channel.connect(null);
                one.channel.connect(null);
                assertThat(one.channel.joinTries()).as("JOIN requests sent").isGreaterThanOrEqualTo(2);
                awaitViewSize(zero, 2);
                assertThat(late.secondPassed.await(20, TimeUnit.SECONDS)).as("second JOIN request delivered").isTrue();
                String text = "after a late JOIN request (encrypt " + encrypt + ")";
                one.channel.send(zero.channel.self(), Wire.encode(Wire.Kind.REJECT, out -> out.writeUTF(text)));
                String got = zero.received.poll(10, TimeUnit.SECONDS);
                assertThat(got).as("rank 0's reliable unicast connections: %s",
                        stack(zero).<UNICAST3>findProtocol(UNICAST3.class).printConnections()).isEqualTo("REJECT:" + text);
                exchange(zero, one, "and back");
                exchange(one, zero, "and again");
            }
        }
    }

    /**
     * Makes a node quick to give up looking for others and quick to merge, so partitions form and heal in a test's
     * time (the production settings wait seconds for both). Reaches into the channel: tests only.
     */
    private static RecordingNode quick(RecordingNode node) throws ReflectiveOperationException {
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
            withIntruder.add(RecordingNode.freeHosts(1).get(0));
            try (RecordingNode bad = new RecordingNode(options(withIntruder, 2, security))) {
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
        List<InetSocketAddress> hosts = RecordingNode.freeHosts(2);
        try (RecordingNode zero = new RecordingNode(options(hosts, 0, security)); RecordingNode one = new RecordingNode(options(hosts, 1, security))) {
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
        List<InetSocketAddress> hosts = RecordingNode.freeHosts(4);
        try (RecordingNode a = quick(new RecordingNode(options(hosts, 0, security)))) {
            a.channel.connect(null); // alone: nobody else is up yet
            List<RecordingNode> others = List.of(quick(new RecordingNode(options(List.of(hosts.get(1)), 0, security))),
                    quick(new RecordingNode(options(List.of(hosts.get(2)), 0, wrongSecret(true)))),
                    quick(new RecordingNode(options(List.of(hosts.get(3)), 0, ClusterSecurity.NONE))));
            try {
                java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(3);
                try {
                    List<java.util.concurrent.Future<?>> starts = new ArrayList<>();
                    for (RecordingNode n : others) { // each alone, as it knows only itself
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
                for (RecordingNode apart : others.subList(1, 3)) {
                    View v = apart.channel.view();
                    assertThat(v == null ? 1 : v.size()).isEqualTo(1);
                }
                exchange(a, others.get(0), "merged");
            } finally {
                others.forEach(RecordingNode::close);
            }
        }
    }
}
