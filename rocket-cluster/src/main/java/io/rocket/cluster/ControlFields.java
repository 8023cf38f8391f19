package io.rocket.cluster;

import org.jgroups.util.ByteArrayDataInputStream;
import org.jgroups.util.Bits;

import java.io.IOException;

/**
 * The fields of JGroups' wire format that {@link ControlFrames} walks through: each read checks what it says against
 * the bytes the frame still holds and allocates nothing that a length or count inside the frame sizes. The layouts
 * are those JGroups 5.5 writes ({@code Util.writeAddress}, {@code Bits.writeString}, {@code Util.writeByteBuffer},
 * {@code Util.writeViewId}); the tests check them against frames JGroups itself writes.
 */
final class ControlFields {
    /** Address kinds, as {@code Util.writeAddress} flags them; no node of Rocket sends the others. */
    private static final byte NULL_ADDRESS = 1;
    private static final byte UUID_ADDRESS = 2;
    private static final byte SITE_UUID = 4;
    private static final byte SITE_MASTER = 8;
    private static final byte IP_ADDRESS = 16;

    private final ByteArrayDataInputStream in;

    ControlFields(ByteArrayDataInputStream in) {
        this.in = in;
    }

    /** Thrown when a frame says more than it holds, or holds something no node of Rocket sends. */
    static final class Refused extends IOException {
        Refused(String what) {
            super(what);
        }
    }

    int left() {
        return in.limit() - in.position();
    }

    byte readByte() throws IOException {
        return in.readByte();
    }

    short readShort() throws IOException {
        return in.readShort();
    }

    int readInt() throws IOException {
        return in.readInt();
    }

    boolean readBoolean() throws IOException {
        return in.readBoolean();
    }

    void readLong() throws IOException {
        in.readLong();
    }

    /** Two numbers as {@code Bits.readLongSequence} reads them (a byte of two lengths, then at most 16 bytes). */
    void longSequence(long[] pair) throws IOException {
        Bits.readLongSequence(in, pair, 0);
    }

    /** A part of the frame read by a layout of its own; the stream goes on after its {@code n} bytes. */
    void within(int n, Part part) throws IOException {
        bound(n, 1, "a part of %d bytes");
        part.read(new ControlFields(new ByteArrayDataInputStream(in.buffer(), in.position(), n)));
        in.skipBytes(n);
    }

    /** Fields read by a layout; see {@link #within}. */
    @FunctionalInterface
    interface Part {
        void read(ControlFields f) throws IOException;
    }

    void readLongCompressed() throws IOException {
        Bits.readLongCompressed(in); // a length nibble and at most 8 bytes: allocates nothing
    }

    void readIntCompressed() throws IOException {
        Bits.readIntCompressed(in);
    }

    /** Skips {@code n} bytes that the frame must hold in full. */
    void skip(long n, String what) throws IOException {
        bound(n, 1, what + " of %d bytes");
        in.skipBytes((int) n);
    }

    /**
     * Refuses a count of items of at least {@code minBytes} each that the bytes left in the frame cannot hold; the
     * format names what is counted ({@code "a batch of %d messages"}).
     */
    void bound(long n, int minBytes, String what) throws Refused {
        int left = left();
        if (n < 0 || n * minBytes > left) {
            throw new Refused(String.format(what, n) + " in a frame with " + left + " bytes left");
        }
    }

    /**
     * An address as {@code Util.readAddress} reads it, of the kinds Rocket's stack sends: none, a node's UUID or a
     * physical (IP) address. The others (relay sites, extended UUIDs, any class named by a number) are refused: JGroups
     * would create them by number and read counts inside them.
     */
    void address() throws IOException {
        byte kind = in.readByte();
        if ((kind & NULL_ADDRESS) != 0) {
            return;
        }
        if ((kind & UUID_ADDRESS) != 0) {
            skip(2 * Long.BYTES, "a UUID");
        } else if ((kind & (SITE_UUID | SITE_MASTER)) == 0 && (kind & IP_ADDRESS) != 0) {
            int length = in.readByte();
            // IpAddress.readFrom: no address bytes (none), IPv4, or IPv6 with its scope id; then the port
            int bytes = length <= 0 ? 0 : length == 4 ? 4 : length == 16 ? 16 + Integer.BYTES : -1;
            if (bytes < 0) {
                throw new Refused("an IP address of " + length + " bytes");
            }
            skip(bytes + Short.BYTES, "an IP address");
        } else {
            throw new Refused("an address of kind " + kind + ", which no node of Rocket sends");
        }
    }

    /** A string as {@code Bits.readString} reads it: a presence byte, then modified UTF-8 of at most 65,535 bytes. */
    void string() throws IOException {
        if (in.readByte() == 1) {
            skip(in.readUnsignedShort(), "a string");
        }
    }

    /** Modified UTF-8 as {@code DataInput.readUTF} reads it, its length checked against the frame first. */
    String readUTF() throws IOException {
        int at = in.position();
        bound(in.readUnsignedShort(), 1, "a string of %d bytes");
        in.position(at);
        return in.readUTF();
    }

    /** A byte array as {@code Util.readByteBuffer} reads it: a presence byte, then a length and the bytes. */
    void byteBuffer(String what) throws IOException {
        if (in.readByte() == 1) {
            skip(in.readInt(), what);
        }
    }

    /** A view id as {@code Util.readViewId} reads it: a presence flag, then the creator and a compressed number. */
    void viewId() throws IOException {
        if (in.readBoolean()) {
            address();
            readLongCompressed();
        }
    }

    /** Addresses as {@code Util.readAddresses} reads them: a count (negative: none), then each address. */
    void addresses(String what) throws IOException {
        short count = in.readShort();
        if (count > 0) {
            bound(count, 1, what + " of %d addresses");
            for (int k = 0; k < count; k++) {
                address();
            }
        }
    }
}
