package io.rocket.cluster;

import io.rocket.core.RocketException;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.protocols.AUTH;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FILE_PING;
import org.jgroups.protocols.FRAG4;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.MFC;
import org.jgroups.protocols.SHARED_LOOPBACK;
import org.jgroups.protocols.SHARED_LOOPBACK_PING;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.UFC;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.stack.Protocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The control plane: a JGroups channel carrying small binary messages ({@link Wire}) between nodes, with
 * membership and failure detection (FD_SOCK2, FD_ALL3, VERIFY_SUSPECT2). Discovery is a static host list
 * (TCPPING), a shared directory (FILE_PING), or an in-JVM loopback group for tests. Received messages are handed to
 * a {@link Handler} on JGroups' threads, which must return quickly and never run application code.
 */
public final class ClusterChannel implements Receiver, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterChannel.class);
    private static final String CLUSTER = "rocket";

    /** Receives decoded messages and view changes. */
    interface Handler {
        void onMessage(Address from, Wire.Kind kind, DataInputStream in) throws Exception;

        void onView(View view);
    }

    /** Control messages are small (FRAG4 cuts at 60 KB); a longer length prefix on the TCP port is garbage. */
    static final int MAX_TCP_MESSAGE = 8 << 20;
    /** How long the first JOIN request waits for its answer; later ones wait longer ({@link JoinBackoff}). */
    static final long FIRST_JOIN_WAIT_MILLIS = 2000;
    /**
     * The longest wait for one JOIN answer: long enough for a coordinator on a machine loaded several times over, short
     * enough that a join abandoned at the join timeout ends soon (it ends at the next try).
     */
    static final long LONGEST_JOIN_WAIT_MILLIS = 8000;

    private final JChannel channel;
    private final Handler handler;
    private final Faults faults;
    private volatile boolean dead;
    private final ClusterSecurity security;

    public ClusterChannel(ClusterOptions options, Handler handler) {
        this.handler = handler;
        this.faults = options.faults();
        this.security = options.security();
        try {
            this.channel = new JChannel(stack(options));
            channel.setName("rank-" + options.rank());
            channel.setReceiver(this);
        } catch (Exception e) {
            throw new RocketException("cluster: cannot create the control channel: " + e.getMessage(), e);
        }
    }

    private static List<Protocol> stack(ClusterOptions o) throws Exception {
        List<Protocol> stack = new ArrayList<>();
        if (o.loopbackGroup() != null) {
            stack.add(new SHARED_LOOPBACK());
            stack.add(new SHARED_LOOPBACK_PING());
        } else {
            TCP tcp = new ControlTransport(); // bounds what an unauthenticated peer can make it allocate or wait for
            if (!o.hosts().isEmpty()) {
                InetSocketAddress self = o.hosts().get(o.rank());
                tcp.setBindAddress(self.getAddress());
                tcp.setBindPort(self.getPort());
                tcp.setPortRange(0);
                tcp.setMaxLength(MAX_TCP_MESSAGE);
                stack.add(tcp);
                TCPPING ping = new TCPPING();
                ping.setInitialHosts(o.hosts());
                ping.setPortRange(0);
                ping.numDiscoveryRuns(3);
                stack.add(ping);
            } else {
                tcp.setMaxLength(MAX_TCP_MESSAGE);
                stack.add(tcp);
                FILE_PING ping = new FILE_PING();
                ping.setLocation(o.discoveryDir().toString());
                stack.add(ping);
            }
        }
        ClusterSecurity security = o.security();
        if (security.authenticated()) {
            stack.add(new ControlProtection(security)); // above discovery: all but discovery is protected
        }
        // Nodes of a job start together, so several may briefly form their own clusters; merge them within
        // seconds rather than JGroups' default of up to a minute.
        MERGE3 merge = new MERGE3();
        merge.setMinInterval(1000);
        merge.setMaxInterval(3000);
        stack.add(merge);
        if (o.loopbackGroup() == null) {
            stack.add(new ControlLiveness()); // a crashed process: its peers see the closed socket at once
        }
        // A hung or cut-off node: silent for the failure timeout. Heartbeats go 4 times per timeout, and a
        // suspicion is checked once more (a quarter of the timeout) before the node is excluded.
        long timeout = o.failureTimeout().toMillis();
        FD_ALL3 heartbeats = new FD_ALL3();
        heartbeats.setTimeout(timeout);
        heartbeats.setInterval(Math.max(25, timeout / 4));
        stack.add(heartbeats);
        VERIFY_SUSPECT2 verify = new VERIFY_SUSPECT2();
        verify.setTimeout(Math.max(50, timeout / 4));
        stack.add(verify);
        stack.add(new NAKACK2());
        stack.add(new UNICAST3());
        stack.add(new STABLE());
        if (security.authenticated()) {
            // Joins and merges must prove the secret, and so must the coordinator answering them.
            AUTH auth = new AUTH();
            ClusterAuthToken token = new ClusterAuthToken(security);
            token.setAuth(auth);
            auth.setAuthToken(token);
            auth.setAuthCoord(true);
            stack.add(auth);
        }
        GMS gms = new GMS();
        gms.printLocalAddress(false);
        // Directly below GMS: each JOIN request waits longer for its answer than the one before, and GMS retries
        // until the cluster run's --join-timeout, never splitting off a node whose coordinator is merely slow.
        stack.add(new JoinBackoff(gms, FIRST_JOIN_WAIT_MILLIS,
                Math.min(LONGEST_JOIN_WAIT_MILLIS, o.joinTimeout().toMillis() / 4)));
        stack.add(gms);
        stack.add(new UFC());
        stack.add(new MFC());
        stack.add(new FRAG4());
        return stack;
    }

    void connect(String group) {
        try {
            channel.connect(group == null ? CLUSTER : CLUSTER + "-" + group);
        } catch (Exception e) {
            SecurityException refused = refusal(e);
            if (refused != null && JoinBackoff.ABANDONED.equals(refused.getMessage())) {
                throw new RocketException("cluster: joining abandoned (the join timeout passed)", e);
            }
            if (refused != null) {
                LOG.debug("cluster: join refused: {}", refused.getMessage());
                throw new RocketException(ControlProtection.OPEN_COORDINATOR.equals(refused.getMessage())
                        ? "cluster: authentication failed: " + ControlProtection.OPEN_COORDINATOR
                        + " and this node has one (give every node the same --cluster-secret-file)"
                        : authenticationFailed(security), e);
            }
            throw new RocketException("cluster: cannot join: " + e.getMessage(), e);
        }
    }

    private static SecurityException refusal(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SecurityException s) {
                return s;
            }
        }
        return null;
    }

    /** The one line a node refused at join reports. */
    static String authenticationFailed(ClusterSecurity security) {
        String why = security.authenticated()
                ? "this node's cluster secret (--cluster-secret-file) or --cluster-encrypt setting does not match "
                        + "the running cluster's"
                : "the running cluster requires a cluster secret and this node has none (--cluster-secret-file)";
        return "cluster: authentication failed: " + why;
    }

    /**
     * Ends a join still in progress (the cluster run's join timeout passed): its connect fails soon after, which
     * lets the channel close. Does nothing once the node has joined.
     */
    void abandonJoin() {
        JoinBackoff backoff = channel.getProtocolStack().findProtocol(JoinBackoff.class);
        if (backoff != null) {
            backoff.abandon();
        }
    }

    /** Whether the channel is still joining the group. */
    boolean joining() {
        return channel.isConnecting();
    }

    /** JOIN requests this node has sent so far (0: it found no coordinator yet, or formed the group itself). */
    int joinTries() {
        JoinBackoff backoff = channel.getProtocolStack().findProtocol(JoinBackoff.class);
        return backoff == null ? 0 : backoff.tries();
    }

    /** The node this node's last JOIN request went to, or null before the first. */
    Address joinCoordinator() {
        JoinBackoff backoff = channel.getProtocolStack().findProtocol(JoinBackoff.class);
        return backoff == null ? null : backoff.lastCoordinator();
    }

    Address self() {
        return channel.getAddress();
    }

    View view() {
        return channel.getView();
    }

    /** Sends to one node, or to all when {@code to} is null. Lost messages are the callers' timeouts' business. */
    void send(Address to, byte[] data) {
        if (dead || faults.drop(Wire.kind(data, 0))) {
            return;
        }
        try {
            channel.send(new BytesMessage(to, data));
        } catch (Exception e) {
            LOG.warn("cluster: send to {} failed: {}", to, e.toString());
        }
    }

    @Override
    public void receive(Message msg) {
        byte[] array = msg.getArray();
        int offset = msg.getOffset();
        int length = msg.getLength();
        if (array == null || length < 1) {
            return; // not one of ours: every message has its kind byte
        }
        Wire.Kind kind;
        try {
            kind = Wire.kind(array, offset);
        } catch (IllegalArgumentException e) { // bytes of no node of this job: one line, no stack
            LOG.warn("cluster: refused a message from {}: {}; it is not a node of this job", msg.getSrc(),
                    e.getMessage());
            return;
        }
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(array, offset + 1, length - 1));
            handler.onMessage(msg.getSrc(), kind, in);
        } catch (Exception e) {
            LOG.error("cluster: bad message from {}: {}", msg.getSrc(), e.toString(), e);
        }
    }

    @Override
    public void viewAccepted(View view) {
        handler.onView(view);
    }

    /** Injected crash: from now on nothing is sent, and the node leaves the group at once. */
    void kill() {
        dead = true;
        channel.close();
    }

    @Override
    public void close() {
        channel.close();
    }
}
