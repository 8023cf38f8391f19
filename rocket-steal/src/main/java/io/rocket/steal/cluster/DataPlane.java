package io.rocket.steal.cluster;

import io.rocket.core.RocketException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;

/**
 * The bulk-data plane: item bytes (megabytes each) go over plain NIO socket channels, one connection per peer and
 * direction, so control messages never queue behind a large transfer. The receiving side reads straight into the
 * buffer the {@link Sink} names (an L2 slot), with no intermediate copy. Frames are
 * {@code [long request][int item][int hop][long length][bytes]}.
 */
public final class DataPlane implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DataPlane.class);
    private static final int HEADER = 24;

    /** Where received bytes go. */
    public interface Sink {
        /** The buffer to read {@code length} bytes into (from position 0), or null to discard them. */
        ByteBuffer begin(long requestId, int item, long length);

        /** The bytes of a frame begun with a buffer arrived (ok) or the connection broke (not ok). */
        void end(long requestId, int hop, long length, boolean ok);
    }

    private final ServerSocketChannel server;
    private final Sink sink;
    private final Map<InetSocketAddress, Peer> peers = new ConcurrentHashMap<>();
    private final ExecutorService readers;
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();
    private volatile boolean closed;

    public DataPlane(InetAddress bindAddress, Sink sink) {
        this.sink = sink;
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

    /** Where peers connect. */
    public InetSocketAddress address() {
        try {
            return (InetSocketAddress) server.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void accept() {
        while (!closed) {
            try {
                SocketChannel channel = server.accept();
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                readers.execute(() -> read(channel));
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("data plane: accept failed: {}", e.toString());
                }
                return;
            }
        }
    }

    private void read(SocketChannel channel) {
        ByteBuffer header = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer discard = ByteBuffer.allocateDirect(1 << 16);
        try (channel) {
            while (!closed) {
                header.clear();
                if (!readFully(channel, header, true)) {
                    return;
                }
                header.flip();
                long id = header.getLong();
                int item = header.getInt();
                int hop = header.getInt();
                long length = header.getLong();
                ByteBuffer target = sink.begin(id, item, length);
                if (target == null) {
                    skip(channel, discard, length);
                    continue;
                }
                boolean ok = false;
                try {
                    ByteBuffer into = target.duplicate().clear().limit((int) length);
                    readFully(channel, into, false);
                    ok = true;
                    bytesReceived.add(length);
                } finally {
                    sink.end(id, hop, length, ok);
                }
            }
        } catch (IOException e) {
            if (!closed) {
                LOG.debug("data plane: connection closed: {}", e.toString());
            }
        }
    }

    /** Reads until {@code buffer} is full; false on a clean end of stream before the first byte. */
    private static boolean readFully(SocketChannel channel, ByteBuffer buffer, boolean eofAllowed) throws IOException {
        boolean first = true;
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer);
            if (n < 0) {
                if (first && eofAllowed) {
                    return false;
                }
                throw new EOFException("data plane: stream ended inside a frame");
            }
            first = false;
        }
        return true;
    }

    private static void skip(SocketChannel channel, ByteBuffer discard, long length) throws IOException {
        long left = length;
        while (left > 0) {
            discard.clear().limit((int) Math.min(discard.capacity(), left));
            int n = channel.read(discard);
            if (n < 0) {
                throw new EOFException("data plane: stream ended inside a frame");
            }
            left -= n;
        }
    }

    /**
     * Queues {@code length} bytes of {@code data} (from position 0) for the peer at {@code to}; {@code done} runs
     * after they are written or the send failed. Sends to one peer go out in order on that peer's sender thread.
     */
    public void send(InetSocketAddress to, long requestId, int item, int hop, ByteBuffer data, int length,
                     Runnable done) {
        peers.computeIfAbsent(to, Peer::new).send(requestId, item, hop, data, length, done);
    }

    public long bytesSent() {
        return bytesSent.sum();
    }

    public long bytesReceived() {
        return bytesReceived.sum();
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        peers.values().forEach(Peer::close);
        readers.shutdownNow();
    }

    /** One outgoing connection and the thread that writes to it. */
    private final class Peer {
        private final InetSocketAddress address;
        private final ExecutorService sender;
        private final ByteBuffer header = ByteBuffer.allocateDirect(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        private SocketChannel channel;

        Peer(InetSocketAddress address) {
            this.address = address;
            this.sender = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "rocket-data-out-" + address.getPort());
                t.setDaemon(true);
                return t;
            });
        }

        void send(long id, int item, int hop, ByteBuffer data, int length, Runnable done) {
            sender.execute(() -> {
                try {
                    if (channel == null) {
                        channel = SocketChannel.open(address);
                        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    }
                    header.clear();
                    header.putLong(id).putInt(item).putInt(hop).putLong(length).flip();
                    ByteBuffer body = data.duplicate().clear().limit(length);
                    ByteBuffer[] frame = {header, body};
                    while (body.hasRemaining()) {
                        channel.write(frame);
                    }
                    bytesSent.add(length);
                } catch (IOException e) {
                    LOG.warn("data plane: send to {} failed: {}", address, e.toString());
                    closeChannel();
                } finally {
                    done.run();
                }
            });
        }

        private void closeChannel() {
            try {
                if (channel != null) {
                    channel.close();
                }
            } catch (IOException ignored) {
                // already broken
            }
            channel = null;
        }

        void close() {
            sender.execute(this::closeChannel);
            sender.shutdown();
        }
    }
}
