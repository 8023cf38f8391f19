package io.rocket.cluster;

import io.rocket.core.RocketException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntPredicate;

/**
 * The receiving side of the data plane: a server socket, its accept loop, and one reader thread per accepted
 * connection. A connection is admitted only through its {@link DataHandshake} within the {@link HandshakeDeadline},
 * with at most {@link #MAX_HANDSHAKES} handshakes at once, so garbage connections cost little and never touch the
 * frames of others; an admitted connection's frames go to the sink through a {@link FrameReader}.
 */
final class DataAcceptor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DataAcceptor.class);
    static final int MAX_HANDSHAKES = 32;

    private final ServerSocketChannel server;
    private final DataPlane.Sink sink;
    private final ClusterSecurity security;
    private final IntPredicate isMember;
    private final HandshakeDeadline deadline;
    private final ExecutorService readers;
    private final AtomicInteger handshakes = new AtomicInteger();
    private final LongAdder received = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private volatile boolean closed;
    private volatile String lastRefusal;

    DataAcceptor(InetAddress bindAddress, DataPlane.Sink sink, ClusterSecurity security, IntPredicate isMember,
                 HandshakeDeadline deadline) {
        this.sink = sink;
        this.security = security;
        this.isMember = isMember;
        this.deadline = deadline;
        try {
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(bindAddress, 0));
        } catch (IOException e) {
            throw new RocketException("cluster: cannot open the data plane on " + bindAddress + ": " + e.getMessage(), e);
        }
        readers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "rocket-data-in");
            t.setDaemon(true);
            return t;
        });
        readers.execute(this::accept);
    }

    InetSocketAddress address() {
        try {
            return (InetSocketAddress) server.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    long refused() {
        return refused.sum();
    }

    long received() {
        return received.sum();
    }

    private void accept() {
        while (!closed) {
            try {
                SocketChannel channel = server.accept();
                // Taken now: once the channel is closed (by the handshake deadline, say) its address is gone.
                SocketAddress remote = ChannelIo.remote(channel);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                if (handshakes.incrementAndGet() > MAX_HANDSHAKES) {
                    handshakes.decrementAndGet();
                    refuse(remote, "too many handshakes at once");
                    ChannelIo.quietlyClose(channel);
                    continue;
                }
                readers.execute(() -> serve(channel, remote));
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("data plane: accept failed: {}", e.toString());
                }
                return;
            }
        }
    }

    /** One connection: its handshake, then its frames until it ends. */
    private void serve(SocketChannel channel, SocketAddress remote) {
        FrameLayer in;
        ScheduledFuture<?> timeout = deadline.arm(channel);
        try {
            in = DataHandshake.accept(channel, security, isMember);
        } catch (IOException | RuntimeException e) {
            if (closed) {
                refused.increment();
            } else {
                refuse(remote, deadline.reason(timeout.isDone(), e));
            }
            ChannelIo.quietlyClose(channel);
            return;
        } finally {
            timeout.cancel(false);
            handshakes.decrementAndGet();
        }
        try (channel) {
            new FrameReader(in, sink, received).run(() -> closed);
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                LOG.debug("data plane: connection closed: {}", e.toString());
            }
        }
    }

    /** Counts a refused connection and says so in one line naming its remote address. */
    private void refuse(SocketAddress remote, String reason) {
        String line = "data plane: refused a connection from " + (remote == null ? "an unknown address" : remote)
                + ": " + reason;
        lastRefusal = line;
        refused.increment();
        LOG.warn(line);
    }

    /** The line of the last refused connection, or null before any (for tests and diagnostics). */
    String lastRefusal() {
        return lastRefusal;
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        readers.shutdownNow();
    }
}
