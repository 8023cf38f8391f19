package io.rocket.steal.cluster;

import io.rocket.core.RocketException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntPredicate;

/**
 * The bulk-data plane: item bytes (megabytes each) go over plain NIO socket channels, one connection per peer and
 * direction, so control messages never queue behind a large transfer. The receiving side reads straight into the
 * buffer the {@link Sink} names (an L2 slot), with no intermediate copy. Frames are
 * {@code [long request][int item][int hop][long length][bytes]}.
 *
 * <p>Every connection opens with a handshake ({@link Handshake}): the connecting node names its rank and, in a
 * cluster with a secret, both sides prove they hold it (HMAC-SHA256 over both sides' fresh nonces); the accepting
 * side takes only ranks that its membership check says are current members. A connection that does not complete
 * the handshake within {@link #handshakeTimeoutMillis} is closed, and at most {@link #MAX_HANDSHAKES} handshakes run
 * at once, so garbage connections cost little and never touch the frames of others. With encryption, frames travel
 * as AES-256-GCM records ({@link Records}); without, frame bytes go from the sender's buffer into the receiver's slot
 * as before.
 */
public final class DataPlane implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DataPlane.class);
    static final int HEADER = 24;
    static final int MAX_HANDSHAKES = 32;
    static final long DEFAULT_HANDSHAKE_TIMEOUT_MILLIS = 5000;

    /** Where received bytes go. */
    public interface Sink {
        /** The buffer to read {@code length} bytes into (from position 0), or null to discard them. */
        ByteBuffer begin(long requestId, int item, long length);

        /** The bytes of a frame begun with a buffer arrived (ok) or the connection broke (not ok). */
        void end(long requestId, int hop, long length, boolean ok);
    }

    private final ServerSocketChannel server;
    private final Sink sink;
    private final ClusterSecurity security;
    private final int rank;
    private final IntPredicate isMember;
    private final Map<InetSocketAddress, Peer> peers = new ConcurrentHashMap<>();
    private final ExecutorService readers;
    private final ScheduledExecutorService watchdog;
    private final AtomicInteger handshakes = new AtomicInteger();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private volatile long handshakeTimeoutMillis = DEFAULT_HANDSHAKE_TIMEOUT_MILLIS;
    private volatile boolean closed;

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
        this.sink = sink;
        this.security = security;
        this.rank = rank;
        this.isMember = isMember;
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
        watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rocket-data-watchdog");
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

    /** How long a connection may take to complete its handshake (tests shorten it). */
    void handshakeTimeoutMillis(long value) {
        handshakeTimeoutMillis = value;
    }

    /** Connections closed without being accepted (bad handshake, wrong secret, not a member, too many at once). */
    public long refusedConnections() {
        return refused.sum();
    }

    private void accept() {
        while (!closed) {
            try {
                SocketChannel channel = server.accept();
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                if (handshakes.incrementAndGet() > MAX_HANDSHAKES) {
                    handshakes.decrementAndGet();
                    refused.increment();
                    LOG.warn("data plane: refused a connection from {}: too many handshakes at once", remote(channel));
                    quietlyClose(channel);
                    continue;
                }
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
        Records records;
        ScheduledFuture<?> timeout = watchdog.schedule(() -> quietlyClose(channel), handshakeTimeoutMillis,
                TimeUnit.MILLISECONDS);
        try {
            records = Handshake.accept(channel, security, isMember);
        } catch (IOException | RuntimeException e) {
            refused.increment();
            if (!closed) {
                LOG.warn("data plane: refused a connection from {}: {}", remote(channel),
                        timeout.isDone() ? "no handshake within " + handshakeTimeoutMillis + " ms" : e.getMessage());
            }
            quietlyClose(channel);
            return;
        } finally {
            timeout.cancel(false);
            handshakes.decrementAndGet();
        }
        try (channel) {
            if (records == null) {
                readPlain(channel);
            } else {
                readRecords(channel, records);
            }
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                LOG.debug("data plane: connection closed: {}", e.toString());
            }
        }
    }

    private void readPlain(SocketChannel channel) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer discard = ByteBuffer.allocateDirect(1 << 16);
        while (!closed) {
            header.clear();
            if (!readFully(channel, header, true)) {
                return;
            }
            header.flip();
            Frame f = Frame.read(header);
            ByteBuffer target = sink.begin(f.id, f.item, f.length);
            if (target == null) {
                skip(channel, discard, f.length);
                continue;
            }
            boolean ok = false;
            try {
                ByteBuffer into = window(target, f);
                readFully(channel, into, false);
                ok = true;
                bytesReceived.add(f.length);
            } finally {
                sink.end(f.id, f.hop, f.length, ok);
            }
        }
    }

    private void readRecords(SocketChannel channel, Records in) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        while (!closed) {
            header.clear();
            if (!in.readHeader(channel, header)) {
                return;
            }
            header.flip();
            Frame f = Frame.read(header);
            ByteBuffer target = sink.begin(f.id, f.item, f.length);
            if (target == null) {
                in.readBody(channel, null, f.length);
                continue;
            }
            boolean ok = false;
            try {
                in.readBody(channel, window(target, f), f.length);
                ok = true;
                bytesReceived.add(f.length);
            } finally {
                sink.end(f.id, f.hop, f.length, ok);
            }
        }
    }

    /** The part of the sink's buffer a frame fills; a frame longer than the buffer breaks the connection. */
    private static ByteBuffer window(ByteBuffer target, Frame f) throws IOException {
        if (f.length > target.capacity()) {
            throw new IOException("data plane: frame of " + f.length + " bytes for a buffer of " + target.capacity());
        }
        return target.duplicate().clear().limit((int) f.length);
    }

    /** A decoded frame header. */
    record Frame(long id, int item, int hop, long length) {
        /** Reads a header; a length no buffer can hold means the stream is not a frame stream. */
        static Frame read(ByteBuffer header) throws IOException {
            Frame f = new Frame(header.getLong(), header.getInt(), header.getInt(), header.getLong());
            if (f.length < 0 || f.length > Integer.MAX_VALUE) {
                throw new IOException("data plane: bad frame header (length " + f.length + ")");
            }
            return f;
        }
    }

    /** Reads until {@code buffer} is full; false on a clean end of stream before the first byte. */
    static boolean readFully(SocketChannel channel, ByteBuffer buffer, boolean eofAllowed) throws IOException {
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

    static void writeFully(SocketChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    private static SocketAddress remote(SocketChannel channel) {
        try {
            return channel.getRemoteAddress();
        } catch (IOException e) {
            return null;
        }
    }

    private static void quietlyClose(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
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
        watchdog.shutdownNow();
    }

    /** One outgoing connection and the thread that writes to it. */
    private final class Peer {
        private final InetSocketAddress address;
        private final ExecutorService sender;
        private final ByteBuffer header = ByteBuffer.allocateDirect(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        private SocketChannel channel;
        private Records records;

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
                        connect();
                    }
                    header.clear();
                    header.putLong(id).putInt(item).putInt(hop).putLong(length).flip();
                    ByteBuffer body = data.duplicate().clear().limit(length);
                    if (records == null) {
                        ByteBuffer[] frame = {header, body};
                        while (header.hasRemaining() || body.hasRemaining()) {
                            channel.write(frame);
                        }
                    } else {
                        records.writeFrame(channel, header, body);
                    }
                    bytesSent.add(length);
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
            ScheduledFuture<?> timeout = watchdog.schedule(() -> quietlyClose(c), handshakeTimeoutMillis,
                    TimeUnit.MILLISECONDS);
            try {
                records = Handshake.connect(c, security, rank);
            } catch (IOException | RuntimeException e) {
                quietlyClose(c);
                throw new IOException(timeout.isDone() ? "no handshake within " + handshakeTimeoutMillis + " ms"
                        : e.getMessage(), e);
            } finally {
                timeout.cancel(false);
            }
            channel = c;
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
            records = null;
        }

        void close() {
            sender.execute(this::closeChannel);
            sender.shutdown();
        }
    }

    /**
     * The opening of every connection. The connecting side sends {@code HELLO = "RKDP", version, flags, rank,
     * nonce[32]} (flags: bit 0 a secret, bit 1 encryption); the accepting side answers {@code "RKDP", status,
     * nonce[32], proof[32]}. With a secret, the proofs are HMAC-SHA256 with a key derived from it, the accepting
     * side's over {@code "server" | HELLO | its nonce}, then the connecting side's over {@code "client" | HELLO |
     * that nonce}, and the accepting side ends with one status byte: so each side has seen the other answer a fresh
     * challenge, and the secret never travels. Only then is the rank, now authenticated, checked against the
     * membership. Without a secret the proofs are zeros and the first status is final. Frames are then plain, or
     * with encryption {@link Records} under a key derived from the secret and both nonces.
     */
    static final class Handshake {
        static final byte[] MAGIC = {'R', 'K', 'D', 'P'};
        static final byte VERSION = 1;
        static final int NONCE = 32;
        static final int PROOF = 32;
        static final int HELLO_BYTES = 4 + 1 + 1 + 4 + NONCE;
        static final int REPLY_BYTES = 4 + 1 + NONCE + PROOF;
        static final byte OK = 0;
        static final byte MODE_MISMATCH = 1;
        static final byte NOT_AUTHENTICATED = 2;
        static final byte NOT_A_MEMBER = 3;
        private static final SecureRandom RANDOM = new SecureRandom();

        private Handshake() {
        }

        static byte flags(ClusterSecurity security) {
            return (byte) ((security.authenticated() ? 1 : 0) | (security.encrypt() ? 2 : 0));
        }

        /** The connecting side; returns the record layer for encrypted frames, else null. */
        static Records connect(SocketChannel channel, ClusterSecurity security, int rank) throws IOException {
            ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES);
            byte[] nonce = new byte[NONCE];
            RANDOM.nextBytes(nonce);
            hello.put(MAGIC).put(VERSION).put(flags(security)).putInt(rank).put(nonce).flip();
            byte[] helloBytes = hello.array().clone();
            writeFully(channel, hello);
            ByteBuffer reply = ByteBuffer.allocate(REPLY_BYTES);
            if (!readFully(channel, reply, true)) {
                throw new IOException("the peer closed the connection during the handshake");
            }
            reply.flip();
            byte[] magic = new byte[4];
            reply.get(magic);
            if (!MessageDigest.isEqual(magic, MAGIC)) {
                throw new IOException("the peer is not a Rocket data plane");
            }
            byte status = reply.get();
            byte[] serverNonce = new byte[NONCE];
            reply.get(serverNonce);
            byte[] serverProof = new byte[PROOF];
            reply.get(serverProof);
            if (status != OK) {
                throw new IOException(refusal(status));
            }
            if (!security.authenticated()) {
                return null;
            }
            byte[] key = security.key("data auth");
            if (!MessageDigest.isEqual(serverProof, proof(key, "server", helloBytes, serverNonce))) {
                throw new IOException("the peer does not hold the cluster secret");
            }
            writeFully(channel, ByteBuffer.wrap(proof(key, "client", helloBytes, serverNonce)));
            ByteBuffer end = ByteBuffer.allocate(1);
            if (!readFully(channel, end, true)) {
                throw new IOException("the peer closed the connection during the handshake");
            }
            status = end.get(0);
            if (status != OK) {
                throw new IOException(refusal(status));
            }
            return security.encrypt() ? Records.forConnection(security, nonce, serverNonce) : null;
        }

        /** The accepting side; returns the record layer for encrypted frames, else null; throws when refused. */
        static Records accept(SocketChannel channel, ClusterSecurity security, IntPredicate isMember)
                throws IOException {
            ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES);
            if (!readFully(channel, hello, true)) {
                throw new IOException("closed before the handshake");
            }
            byte[] helloBytes = hello.array().clone();
            Hello h = Hello.parse(helloBytes);
            byte flags = h.flags();
            int rank = h.rank();
            byte[] clientNonce = h.nonce();
            byte[] serverNonce = new byte[NONCE];
            byte[] serverProof = new byte[PROOF];
            byte status = OK;
            byte[] key = null;
            if (flags != flags(security)) {
                status = MODE_MISMATCH;
            } else if (security.authenticated()) {
                RANDOM.nextBytes(serverNonce);
                key = security.key("data auth");
                serverProof = proof(key, "server", helloBytes, serverNonce);
            } else if (!isMember.test(rank)) {
                status = NOT_A_MEMBER;
            }
            ByteBuffer reply = ByteBuffer.allocate(REPLY_BYTES);
            reply.put(MAGIC).put(status).put(serverNonce).put(serverProof).flip();
            writeFully(channel, reply);
            if (status != OK) {
                throw new IOException("rank " + rank + ": " + refusal(status));
            }
            if (!security.authenticated()) {
                return null;
            }
            ByteBuffer proof = ByteBuffer.allocate(PROOF);
            if (!readFully(channel, proof, true)) {
                throw new IOException("closed during the handshake");
            }
            if (!MessageDigest.isEqual(proof.array(), proof(key, "client", helloBytes, serverNonce))) {
                status = NOT_AUTHENTICATED;
            } else if (!isMember.test(rank)) {
                status = NOT_A_MEMBER;
            }
            writeFully(channel, ByteBuffer.wrap(new byte[]{status}));
            if (status != OK) {
                throw new IOException("rank " + rank + ": " + refusal(status));
            }
            return security.encrypt() ? Records.forConnection(security, clientNonce, serverNonce) : null;
        }

        /** A connecting side's first message. */
        record Hello(byte flags, int rank, byte[] nonce) {
            /** Decodes {@link #HELLO_BYTES} bytes; anything but a Rocket hello of this version is refused. */
            static Hello parse(byte[] bytes) throws IOException {
                if (bytes.length != HELLO_BYTES) {
                    throw new IOException("a handshake hello is " + HELLO_BYTES + " bytes, not " + bytes.length);
                }
                ByteBuffer b = ByteBuffer.wrap(bytes);
                byte[] magic = new byte[4];
                b.get(magic);
                if (!MessageDigest.isEqual(magic, MAGIC) || b.get() != VERSION) {
                    throw new IOException("not a Rocket data-plane handshake");
                }
                byte flags = b.get();
                if ((flags & ~3) != 0) {
                    throw new IOException("unknown handshake flags " + flags);
                }
                int rank = b.getInt();
                byte[] nonce = new byte[NONCE];
                b.get(nonce);
                return new Hello(flags, rank, nonce);
            }
        }

        static byte[] proof(byte[] key, String role, byte[] hello, byte[] serverNonce) {
            return ClusterSecurity.hmac(key, role.getBytes(java.nio.charset.StandardCharsets.US_ASCII), hello,
                    serverNonce);
        }

        static String refusal(byte status) {
            return switch (status) {
                case MODE_MISMATCH -> "the two nodes disagree about the cluster secret or --cluster-encrypt";
                case NOT_AUTHENTICATED -> "authentication failed (the cluster secrets differ)";
                case NOT_A_MEMBER -> "the connecting rank is not a current member of the run";
                default -> "refused (status " + status + ")";
            };
        }
    }

    /**
     * Encrypted frames: AES-256-GCM records under a key derived from the cluster secret and both handshake nonces
     * (so every connection has its own key), with the record counter as the nonce (so records cannot be replayed,
     * reordered or dropped without the next one failing). A frame is a 24-byte header record, then its bytes in
     * records of at most {@link #CHUNK} bytes; each record is its ciphertext and 16-byte tag, and record lengths
     * follow from the header, so nothing travels unauthenticated. Records keep every cipher call to a bounded size,
     * and the receiver decrypts each record straight into the sink's buffer.
     */
    static final class Records {
        static final int CHUNK = 1 << 20;
        static final int TAG = 16;
        private final Cipher cipher;
        private final SecretKeySpec key;
        private final byte[] iv = new byte[12];
        private final ByteBuffer staging = ByteBuffer.allocateDirect(CHUNK + TAG);
        private ByteBuffer discard;
        private long counter;

        private Records(byte[] key) {
            try {
                this.cipher = Cipher.getInstance("AES/GCM/NoPadding");
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("AES/GCM is not available", e);
            }
            this.key = new SecretKeySpec(key, "AES");
        }

        static Records forConnection(ClusterSecurity security, byte[] clientNonce, byte[] serverNonce) {
            return new Records(ClusterSecurity.hmac(security.key("data encrypt"),
                    "client to server".getBytes(java.nio.charset.StandardCharsets.US_ASCII), clientNonce, serverNonce));
        }

        private void init(int mode) throws GeneralSecurityException {
            ByteBuffer.wrap(iv).putInt(0).putLong(counter++);
            cipher.init(mode, key, new GCMParameterSpec(TAG * 8, iv));
        }

        /** Encrypts and writes one frame: its header, then its body in chunks. */
        void writeFrame(SocketChannel channel, ByteBuffer header, ByteBuffer body) throws IOException {
            seal(channel, header);
            while (body.hasRemaining()) {
                int n = Math.min(CHUNK, body.remaining());
                ByteBuffer chunk = body.duplicate().limit(body.position() + n);
                seal(channel, chunk);
                body.position(body.position() + n);
            }
        }

        private void seal(SocketChannel channel, ByteBuffer plain) throws IOException {
            staging.clear();
            try {
                init(Cipher.ENCRYPT_MODE);
                cipher.doFinal(plain, staging);
            } catch (GeneralSecurityException e) {
                throw new IOException("data plane: encryption failed: " + e, e);
            }
            staging.flip();
            writeFully(channel, staging);
        }

        /** Reads and decrypts a header record; false on a clean end of stream before it. */
        boolean readHeader(SocketChannel channel, ByteBuffer header) throws IOException {
            staging.clear().limit(HEADER + TAG);
            if (!readFully(channel, staging, true)) {
                return false;
            }
            open(header);
            return true;
        }

        /** Reads and decrypts {@code length} body bytes into {@code into}, or checks and drops them if it is null. */
        void readBody(SocketChannel channel, ByteBuffer into, long length) throws IOException {
            long left = length;
            while (left > 0) {
                int n = (int) Math.min(CHUNK, left);
                staging.clear().limit(n + TAG);
                readFully(channel, staging, false);
                if (into == null) {
                    if (discard == null) {
                        discard = ByteBuffer.allocateDirect(CHUNK);
                    }
                    open(discard.clear());
                } else {
                    open(into.duplicate().limit(into.position() + n));
                    into.position(into.position() + n);
                }
                left -= n;
            }
        }

        /** Decrypts the record read into {@code staging} into {@code out}. */
        private void open(ByteBuffer out) throws IOException {
            staging.flip();
            try {
                init(Cipher.DECRYPT_MODE);
                cipher.doFinal(staging, out);
            } catch (AEADBadTagException e) {
                throw new IOException("data plane: a record failed authentication (tampered, or not from a member)");
            } catch (GeneralSecurityException e) {
                throw new IOException("data plane: decryption failed: " + e, e);
            }
        }
    }
}
