package io.rocket.cluster;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.LongAdder;

/**
 * The sending side of the data plane towards one peer: one outgoing connection and the one thread that writes to
 * it, so sends to a peer go out in order. The connection is opened (with its {@link DataHandshake}) on the first
 * send and again after one breaks; a failed send is logged and its completion still runs.
 */
final class PeerSender {
    private static final Logger LOG = LoggerFactory.getLogger(PeerSender.class);

    private final InetSocketAddress address;
    private final ClusterSecurity security;
    private final int rank;
    private final HandshakeDeadline deadline;
    private final LongAdder sent;
    private final ExecutorService sender;
    private final ByteBuffer header = FrameHeader.buffer(true);
    private SocketChannel channel;
    private FrameLayer out;

    PeerSender(InetSocketAddress address, ClusterSecurity security, int rank, HandshakeDeadline deadline,
               LongAdder sent) {
        this.address = address;
        this.security = security;
        this.rank = rank;
        this.deadline = deadline;
        this.sent = sent;
        this.sender = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "rocket-data-out-" + address.getPort());
            t.setDaemon(true);
            return t;
        });
    }

    /** Queues one frame of {@code length} bytes of {@code data} (from position 0); {@code done} runs either way. */
    void send(long id, int item, int hop, ByteBuffer data, int length, Runnable done) {
        sender.execute(() -> {
            try {
                if (channel == null) {
                    connect();
                }
                out.write(FrameHeader.write(header, id, item, hop, length), data.duplicate().clear().limit(length));
                sent.add(length);
            } catch (IOException | RuntimeException e) {
                LOG.warn("data plane: send to {} failed: {}", address, e.getMessage());
                closeChannel();
            } finally {
                done.run();
            }
        });
    }

    private void connect() throws IOException {
        SocketChannel c = SocketChannel.open(address);
        c.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ScheduledFuture<?> timeout = deadline.arm(c);
        try {
            out = DataHandshake.connect(c, security, rank);
        } catch (IOException | RuntimeException e) {
            ChannelIo.quietlyClose(c);
            throw new IOException(deadline.reason(timeout.isDone(), e), e);
        } finally {
            timeout.cancel(false);
        }
        channel = c;
    }

    private void closeChannel() {
        if (channel != null) {
            ChannelIo.quietlyClose(channel);
        }
        channel = null;
        out = null;
    }

    /** Closes the connection after the sends queued before, and stops the thread. */
    void close() {
        sender.execute(this::closeChannel);
        sender.shutdown();
    }
}
