package io.rocket.cluster;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntPredicate;

/**
 * The bulk-data plane: item bytes (megabytes each) go over plain NIO socket channels, one connection per peer and
 * direction, so control messages never queue behind a large transfer. The receiving side reads straight into the
 * buffer the {@link Sink} names (an L2 slot), with no intermediate copy. Frames are a {@link FrameHeader} and the
 * item's bytes.
 *
 * <p>This class is the facade its users call; the parts are: {@link DataAcceptor} (the server socket and one reader
 * per accepted connection, through {@link FrameReader}), {@link PeerSender} (one outgoing connection and thread per
 * peer), {@link DataHandshake} (every connection's opening: the connecting node names its rank and, in a cluster
 * with a secret, both sides prove they hold it; the accepting side takes only ranks its membership check says are
 * current members), bounded by the {@link HandshakeDeadline}, and the frame layer the handshake picks:
 * {@link PlainFrames}, or with encryption AES-256-GCM {@link SealedRecords}.
 */
public final class DataPlane implements AutoCloseable {

    /** Where received bytes go. */
    public interface Sink {
        /** The buffer to read {@code length} bytes into (from position 0), or null to discard them. */
        ByteBuffer begin(long requestId, int item, long length);

        /** The bytes of a frame begun with a buffer arrived (ok) or the connection broke (not ok). */
        void end(long requestId, int hop, long length, boolean ok);
    }

    private final ClusterSecurity security;
    private final int rank;
    private final HandshakeDeadline deadline = new HandshakeDeadline();
    private final DataAcceptor acceptor;
    private final Map<InetSocketAddress, PeerSender> peers = new ConcurrentHashMap<>();
    private final LongAdder bytesSent = new LongAdder();

    /** An open data plane (no secret) that accepts every rank. */
    public DataPlane(InetAddress bindAddress, Sink sink) {
        this(bindAddress, sink, ClusterSecurity.NONE, 0, r -> true);
    }

    /**
     * @param security the cluster's secret and whether frames are encrypted
     * @param rank     this node's rank, named when it connects to others
     * @param isMember whether a rank that connects here is a current member (checked after it proved the secret)
     */
    public DataPlane(InetAddress bindAddress, Sink sink, ClusterSecurity security, int rank, IntPredicate isMember) {
        this.security = security;
        this.rank = rank;
        try {
            this.acceptor = new DataAcceptor(bindAddress, sink, security, isMember, deadline);
        } catch (RuntimeException e) {
            deadline.close();
            throw e;
        }
    }

    /** Where peers connect. */
    public InetSocketAddress address() {
        return acceptor.address();
    }

    /** How long a connection may take to complete its handshake (tests shorten it). */
    void handshakeTimeoutMillis(long value) {
        deadline.millis(value);
    }

    /** Connections closed without being accepted (bad handshake, wrong secret, not a member, too many at once). */
    public long refusedConnections() {
        return acceptor.refused();
    }

    /** The logged line of the last refused connection, naming its remote address; null before any. */
    String lastRefusal() {
        return acceptor.lastRefusal();
    }

    /**
     * Queues {@code length} bytes of {@code data} (from position 0) for the peer at {@code to}; {@code done} runs
     * after they are written or the send failed. Sends to one peer go out in order on that peer's sender thread.
     */
    public void send(InetSocketAddress to, long requestId, int item, int hop, ByteBuffer data, int length,
                     Runnable done) {
        peers.computeIfAbsent(to, a -> new PeerSender(a, security, rank, deadline, bytesSent))
                .send(requestId, item, hop, data, length, done);
    }

    public long bytesSent() {
        return bytesSent.sum();
    }

    public long bytesReceived() {
        return acceptor.received();
    }

    @Override
    public void close() {
        acceptor.close();
        peers.values().forEach(PeerSender::close);
        deadline.close();
    }
}
