package io.rocket.cluster;

import org.jgroups.Address;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.TCP;
import org.jgroups.util.DefaultSocketFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ServerSocketFactory;
import javax.net.SocketFactory;
import java.io.DataInput;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.SocketException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The control plane's TCP transport: JGroups' TCP, hardened against what an unauthenticated peer can send to the
 * control port before {@link ControlProtection} sees a message.
 *
 * <ul>
 *   <li>A frame is read into an array of exactly its length, growing as its bytes arrive (a length prefix alone
 *   pins nothing), and checked by {@link ControlFrames} before JGroups decodes it: a length inside it that says more
 *   than the frame holds, or a frame JGroups cannot decode, is refused and its connection closed. JGroups itself
 *   decodes straight off the socket and allocates what each length says before reading it.</li>
 *   <li>Connections are accepted by a {@link ControlServerSocket}, which reads each connection's opening address
 *   off JGroups' single accepting thread, under a deadline and with a cap on the connections waiting per source
 *   address: connections that never send it cannot hold up the others.</li>
 * </ul>
 *
 * Each refusal is counted and logged at WARN, one line, at most one line every {@value #WARN_INTERVAL_MILLIS} ms
 * (the next line says how many were not logged).
 */
final class ControlTransport extends TCP {
    /** JGroups names each protocol's headers by an id; ids from 1024 up are for protocols outside JGroups. */
    static final short PROTOCOL_ID = 1_703;

    static {
        ClassConfigurator.addProtocol(PROTOCOL_ID, ControlTransport.class);
    }

    private static final Logger LOG = LoggerFactory.getLogger("io.rocket.cluster.ControlPort");
    static final long WARN_INTERVAL_MILLIS = 10_000;
    /** The first growth step of a frame's array; it doubles as bytes arrive, up to the frame's length. */
    private static final int FIRST_CHUNK = 64 << 10;
    /** How long JGroups waits for a peer's address once the connection reached it (it is already read then). */
    static final int PEER_ADDRESS_READ_MILLIS = 2000;

    private final LongAdder refused = new LongAdder();
    private final AtomicLong lastWarn = new AtomicLong(Long.MIN_VALUE);
    private final LongAdder unlogged = new LongAdder();
    private final AtomicReference<String> lastRefusal = new AtomicReference<>();

    ControlTransport() {
        setPeerAddrReadTimeout(PEER_ADDRESS_READ_MILLIS);
    }

    @Override
    public void start() throws Exception {
        setSocketFactory(new Sockets(this)); // here: the stack gives its transport a socket factory before this
        super.start();
    }

    /** Refusals so far (frames and connections). */
    long refused() {
        return refused.sum();
    }

    /** The last refusal's log line, or null. */
    String lastRefusal() {
        return lastRefusal.get();
    }

    /** Counts and logs one refusal (rate-limited). */
    void refuse(String line) {
        refused.increment();
        lastRefusal.set(line);
        long now = System.currentTimeMillis();
        long last = lastWarn.get();
        if ((last == Long.MIN_VALUE || now - last >= WARN_INTERVAL_MILLIS) && lastWarn.compareAndSet(last, now)) {
            long skipped = unlogged.sumThenReset();
            LOG.warn(skipped == 0 ? "{}" : "{} ({} more refused since the last such line)", line, skipped);
        } else {
            unlogged.increment();
        }
    }

    @Override
    public void receive(Address sender, DataInput in, int length) throws Exception {
        if (length < 0) {
            refuse("cluster: control port: refused a frame of negative length " + length + from(sender));
            throw new SocketException("refused frame");
        }
        byte[] frame = new byte[Math.min(length, FIRST_CHUNK)];
        int got = 0;
        while (got < length) {
            if (got == frame.length) {
                frame = Arrays.copyOf(frame, (int) Math.min(length, 2L * frame.length));
            }
            in.readFully(frame, got, frame.length - got);
            got = frame.length;
        }
        String refusal = ControlFrames.check(frame, length);
        if (refusal != null) {
            refuse("cluster: control port: refused " + refusal + from(sender) + "; connection closed");
            throw new SocketException("refused frame"); // JGroups ends the connection quietly
        }
        receive(sender, frame, 0, length);
    }

    /**
     * Where a frame came from: the address the peer claimed when it connected, and the connection itself (JGroups
     * names the thread that reads a connection after its two ends).
     */
    private static String from(Address claimed) {
        String thread = Thread.currentThread().getName();
        int open = thread.indexOf('[');
        int close = thread.indexOf(']', open + 1);
        String connection = open >= 0 && close > open ? thread.substring(open + 1, close) : null;
        return " from " + (connection != null ? connection + " (claiming " + claimed + ")" : claimed);
    }

    /** JGroups' sockets, but the control port's server socket is a {@link ControlServerSocket}. */
    private static final class Sockets extends DefaultSocketFactory {
        private final ControlTransport transport;

        Sockets(ControlTransport transport) {
            super(SocketFactory.getDefault(), ServerSocketFactory.getDefault());
            this.transport = transport;
        }

        @Override
        public ServerSocket createServerSocket(String serviceName) throws IOException {
            return "jgroups.tcp.server".equals(serviceName) ? new ControlServerSocket(transport::refuse)
                    : super.createServerSocket(serviceName);
        }
    }
}
