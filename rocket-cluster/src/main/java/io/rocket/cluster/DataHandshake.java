package io.rocket.cluster;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.function.IntPredicate;

/**
 * The opening of every connection. The connecting side sends {@code HELLO = "RKDP", version, flags, rank,
 * nonce[32]} (flags: bit 0 a secret, bit 1 encryption); the accepting side answers {@code "RKDP", status,
 * nonce[32], proof[32]}. With a secret, the proofs are HMAC-SHA256 with a key derived from it, the accepting
 * side's over {@code "server" | HELLO | its nonce}, then the connecting side's over {@code "client" | HELLO |
 * that nonce}, and the accepting side ends with one status byte: so each side has seen the other answer a fresh
 * challenge, and the secret never travels. Only then is the rank, now authenticated, checked against the
 * membership. Without a secret the proofs are zeros and the first status is final. Frames are then
 * {@link PlainFrames}, or with encryption {@link SealedRecords} under a key derived from the secret and both nonces.
 */
final class DataHandshake {
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

    private DataHandshake() {
    }

    static byte flags(ClusterSecurity security) {
        return (byte) ((security.authenticated() ? 1 : 0) | (security.encrypt() ? 2 : 0));
    }

    /** The connecting side; returns the layer the connection's frames then travel through. */
    static FrameLayer connect(SocketChannel channel, ClusterSecurity security, int rank) throws IOException {
        ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES);
        byte[] nonce = new byte[NONCE];
        RANDOM.nextBytes(nonce);
        hello.put(MAGIC).put(VERSION).put(flags(security)).putInt(rank).put(nonce).flip();
        byte[] helloBytes = hello.array().clone();
        ChannelIo.writeFully(channel, hello);
        ByteBuffer reply = ByteBuffer.allocate(REPLY_BYTES);
        if (!ChannelIo.readFully(channel, reply, true)) {
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
            return new PlainFrames(channel);
        }
        byte[] key = security.key("data auth");
        if (!MessageDigest.isEqual(serverProof, proof(key, "server", helloBytes, serverNonce))) {
            throw new IOException("the peer does not hold the cluster secret");
        }
        ChannelIo.writeFully(channel, ByteBuffer.wrap(proof(key, "client", helloBytes, serverNonce)));
        ByteBuffer end = ByteBuffer.allocate(1);
        if (!ChannelIo.readFully(channel, end, true)) {
            throw new IOException("the peer closed the connection during the handshake");
        }
        status = end.get(0);
        if (status != OK) {
            throw new IOException(refusal(status));
        }
        return security.encrypt() ? SealedRecords.forConnection(channel, security, nonce, serverNonce)
                : new PlainFrames(channel);
    }

    /** The accepting side; returns the layer the connection's frames then travel through; throws when refused. */
    static FrameLayer accept(SocketChannel channel, ClusterSecurity security, IntPredicate isMember)
            throws IOException {
        ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES);
        if (!ChannelIo.readFully(channel, hello, true)) {
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
        ChannelIo.writeFully(channel, reply);
        if (status != OK) {
            throw new IOException("rank " + rank + ": " + refusal(status));
        }
        if (!security.authenticated()) {
            return new PlainFrames(channel);
        }
        ByteBuffer proof = ByteBuffer.allocate(PROOF);
        if (!ChannelIo.readFully(channel, proof, true)) {
            throw new IOException("closed during the handshake");
        }
        if (!MessageDigest.isEqual(proof.array(), proof(key, "client", helloBytes, serverNonce))) {
            status = NOT_AUTHENTICATED;
        } else if (!isMember.test(rank)) {
            status = NOT_A_MEMBER;
        }
        ChannelIo.writeFully(channel, ByteBuffer.wrap(new byte[]{status}));
        if (status != OK) {
            throw new IOException("rank " + rank + ": " + refusal(status));
        }
        return security.encrypt() ? SealedRecords.forConnection(channel, security, clientNonce, serverNonce)
                : new PlainFrames(channel);
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
        return ClusterSecurity.hmac(key, role.getBytes(StandardCharsets.US_ASCII), hello,
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
