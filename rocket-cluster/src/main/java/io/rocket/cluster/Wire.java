package io.rocket.cluster;

import io.rocket.cluster.l3.L3Message;
import io.rocket.steal.Region;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The control messages of a cluster run and their binary form: one registry of type ids (the first byte), each
 * kind written and read by the code here. No Java serialization.
 */
public final class Wire {
    private Wire() {
    }

    /** Message kinds; the ordinal is the wire id, so only append. */
    public enum Kind {
        HELLO, READY, START, REJECT, STEAL_REQUEST, STEAL_REPLY, L3, RESULTS, DONE, STATS, BYE, PROGRESS,
        /** Rank 0 to all after a loss: which ranks are gone; reply with CLAIMS. */
        LOST,
        /** The regions a node still holds (queued, in its share, or running), for rank 0's recovery round. */
        CLAIMS,
        /** Rank 0 to one node: regions of lost work to run again. */
        RECOVER,
        /** The answer to a REJECT: it reached this node, so the node that sent it may close its channel. */
        REJECT_SEEN,
        /** A node's live figures for rank 0's status endpoint ({@link NodeStatus}), about once a second. */
        STATUS
    }

    /** Something that writes a message body. */
    @FunctionalInterface
    public interface Body {
        void write(DataOutputStream out) throws IOException;
    }

    /** Encodes a message: kind byte, then the body. */
    public static byte[] encode(Kind kind, Body body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(kind.ordinal());
            body.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The kind of an encoded message. */
    public static Kind kind(byte[] data, int offset) {
        int id = data[offset] & 0xFF;
        if (id >= Kind.values().length) {
            throw new IllegalArgumentException("unknown message kind " + id);
        }
        return Kind.values()[id];
    }

    /** HELLO: who I am, where my data plane listens, and the start window I propose. */
    public record Hello(int rank, int nodes, String fingerprint, String dataHost, int dataPort, int window) {
        static Hello read(DataInputStream in) throws IOException {
            return new Hello(in.readInt(), in.readInt(), in.readUTF(), in.readUTF(), in.readInt(), in.readInt());
        }

        void write(DataOutputStream out) throws IOException {
            out.writeInt(rank);
            out.writeInt(nodes);
            out.writeUTF(fingerprint);
            out.writeUTF(dataHost);
            out.writeInt(dataPort);
            out.writeInt(window);
        }
    }

    static void writeRegions(DataOutputStream out, List<Region> regions) throws IOException {
        out.writeInt(regions.size());
        for (Region r : regions) {
            out.writeInt(r.r0());
            out.writeInt(r.r1());
            out.writeInt(r.c0());
            out.writeInt(r.c1());
            out.writeByte(r.curve());
        }
    }

    static List<Region> readRegions(DataInputStream in) throws IOException {
        int count = in.readInt();
        if (count < 0) {
            throw new IOException("negative region count " + count);
        }
        // The list grows as regions are read (17 bytes each), so a count beyond the input allocates nothing before
        // the input runs out; this works on any stream, not only on message bodies.
        List<Region> regions = new ArrayList<>(Math.min(count, 64));
        for (int k = 0; k < count; k++) {
            regions.add(new Region(in.readInt(), in.readInt(), in.readInt(), in.readInt(), in.readByte()));
        }
        return regions;
    }

    static void writeL3(DataOutputStream out, L3Message m) throws IOException {
        out.writeByte(m.kind().ordinal());
        out.writeLong(m.requestId());
        out.writeInt(m.item());
        out.writeInt(m.requester());
        out.writeInt(m.hop());
        out.writeInt(m.candidates().length);
        for (long c : m.candidates()) {
            out.writeLong(c);
        }
    }

    static L3Message readL3(DataInputStream in) throws IOException {
        int ordinal = in.readUnsignedByte();
        if (ordinal >= L3Message.Kind.values().length) {
            throw new IOException("unknown L3 message kind " + ordinal);
        }
        L3Message.Kind kind = L3Message.Kind.values()[ordinal];
        long id = in.readLong();
        int item = in.readInt();
        int requester = in.readInt();
        int hop = in.readInt();
        long[] candidates = new long[count(in, Long.BYTES)];
        for (int k = 0; k < candidates.length; k++) {
            candidates[k] = in.readLong();
        }
        return new L3Message(kind, id, item, requester, hop, candidates);
    }

    /** A byte array with its length in front. */
    static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    /** Reads what {@link #writeBytes} wrote; a length beyond the message is an error. */
    static byte[] readBytes(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new IOException("byte array of " + length + " bytes in a message with " + in.available() + " left");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }

    /**
     * Reads a count of elements of at least {@code bytesEach} bytes that follow in the message; a count the rest of
     * the message cannot hold is rejected before anything is allocated for it. Messages are decoded from byte
     * arrays, so {@code available()} is exactly what is left.
     */
    static int count(DataInputStream in, int bytesEach) throws IOException {
        int count = in.readInt();
        if (count < 0 || count > in.available() / bytesEach) {
            throw new IOException("bad element count " + count + " with " + in.available() + " bytes left");
        }
        return count;
    }
}
