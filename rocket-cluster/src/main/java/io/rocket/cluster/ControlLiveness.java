package io.rocket.cluster;

import org.jgroups.Address;
import org.jgroups.blocks.cs.NioServer;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.util.ByteArrayDataInputStream;

import java.io.DataInput;
import java.io.IOException;
import java.util.concurrent.atomic.LongAdder;

/**
 * JGroups' FD_SOCK2 (a crashed process: its peers see the closed socket at once), with its own port guarded as the
 * control port is. FD_SOCK2 runs a server of its own, outside the transport and below every protection: JGroups lets
 * it read a message of any length a peer's prefix says, then decodes the message's headers. Here a message is at most
 * {@value #MAX_MESSAGE} bytes (a liveness message holds a header with the members' addresses: a few KiB for a
 * thousand nodes), and is walked against the schema of what Rocket's stack sends ({@link ControlFrames}) before
 * JGroups decodes it; a message that fails is dropped and logged as the control port's refusals are.
 */
final class ControlLiveness extends FD_SOCK2 {
    /** JGroups names each protocol's headers by an id; ids from 1024 up are for protocols outside JGroups. */
    static final short PROTOCOL_ID = 1_704;

    static {
        ClassConfigurator.addProtocol(PROTOCOL_ID, ControlLiveness.class);
    }

    /** The longest message the liveness port reads; a longer length prefix closes the connection. */
    static final int MAX_MESSAGE = 256 << 10;

    private final LongAdder delivered = new LongAdder();

    @Override
    protected NioServer createServer(int[] ports) {
        NioServer server = super.createServer(ports);
        server.setMaxLength(MAX_MESSAGE); // JGroups' default, 0, reads whatever length a peer's prefix says
        return server;
    }

    /** The liveness port, once started. */
    int port() throws IOException {
        return ((java.net.InetSocketAddress) srv.getChannel().getLocalAddress()).getPort();
    }

    /** Messages that passed the check and FD_SOCK2 handled without an error. */
    long delivered() {
        return delivered.sum();
    }

    /**
     * FD_SOCK2 reads a message either way (an array, or a stream of a given length) and decodes it from a stream; both
     * ways end in {@link #deliver}, which calls FD_SOCK2's own decoding directly (calling this class's overrides again
     * would loop).
     */
    @Override
    public void receive(Address sender, byte[] buf, int offset, int length) {
        try {
            deliver(sender, buf, offset, length);
        } catch (Exception e) {
            log.warn("%s: liveness port: failed handling a message from %s: %s", getAddress(), sender, e);
        }
    }

    @Override
    public void receive(Address sender, DataInput in, int length) throws Exception {
        if (length < 0 || length > MAX_MESSAGE) {
            throw new IOException("liveness port: refused a message of " + length + " bytes from " + sender);
        }
        byte[] message = new byte[length];
        in.readFully(message);
        deliver(sender, message, 0, length);
    }

    private void deliver(Address sender, byte[] buf, int offset, int length) throws Exception {
        String refusal = ControlFrames.checkEmptyMessage(buf, offset, length);
        if (refusal != null) {
            String line = "cluster: liveness port: refused " + refusal + " from " + sender;
            if (getTransport() instanceof ControlTransport transport) {
                transport.refuse(line);
            } else {
                log.warn(line);
            }
            return;
        }
        super.receive(sender, new ByteArrayDataInputStream(buf, offset, length), length);
        delivered.increment();
    }
}
