package io.rocket.cluster;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The sealed record layer alone, over an in-memory channel: frames of every size round-trip (bodies over several
 * records included), each record costs exactly its tag, and a flipped bit, a dropped or repeated record, or another
 * connection's key fails authentication.
 */
class SealedRecordsTest {
    private static final byte[] KEY = "sealed records test key 32 bytes".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** Bytes written are kept in order and read back from the start. */
    private static final class Memory implements ByteChannel {
        byte[] bytes = new byte[0];
        int read;

        @Override
        public int read(ByteBuffer dst) {
            if (read == bytes.length) {
                return -1;
            }
            int n = Math.min(dst.remaining(), bytes.length - read);
            dst.put(bytes, read, n);
            read += n;
            return n;
        }

        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            int at = bytes.length;
            bytes = Arrays.copyOf(bytes, at + n);
            src.get(bytes, at, n);
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    private static ByteBuffer body(int length, long seed) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return ByteBuffer.allocateDirect(length).put(b).flip();
    }

    private static void writeFrame(SealedRecords out, long id, ByteBuffer body) throws IOException {
        ByteBuffer header = FrameHeader.write(FrameHeader.buffer(true), id, 3, 1, body.remaining());
        out.write(header, body.duplicate());
    }

    /** Reads one frame back; returns its body. */
    private static ByteBuffer readFrame(SealedRecords in, long id) throws IOException {
        ByteBuffer header = FrameHeader.buffer(false);
        assertThat(in.readHeader(header)).isTrue();
        FrameHeader f = new FrameHeader().read(header.flip());
        assertThat(f.id).isEqualTo(id);
        ByteBuffer into = ByteBuffer.allocateDirect((int) f.length);
        in.readBody(into, f.length);
        assertThat(into.hasRemaining()).isFalse();
        return into.flip();
    }

    @Test
    void framesRoundTrip_inRecordsOfAtMostAChunk() throws IOException {
        Memory wire = new Memory();
        SealedRecords out = new SealedRecords(wire, KEY);
        int[] lengths = {0, 1, 1000, SealedRecords.CHUNK, SealedRecords.CHUNK * 2 + 12345};
        long expected = 0;
        for (int k = 0; k < lengths.length; k++) {
            writeFrame(out, k, body(lengths[k], k));
            int records = 1 + (lengths[k] + SealedRecords.CHUNK - 1) / SealedRecords.CHUNK;
            expected += FrameHeader.BYTES + lengths[k] + (long) records * SealedRecords.TAG;
        }
        assertThat(wire.bytes.length).isEqualTo(expected);
        SealedRecords in = new SealedRecords(wire, KEY);
        for (int k = 0; k < lengths.length; k++) {
            assertThat(readFrame(in, k)).isEqualTo(body(lengths[k], k));
        }
        assertThat(in.readHeader(FrameHeader.buffer(false))).as("a clean end").isFalse();
    }

    @Test
    void aDroppedBodyIsStillAuthenticated() throws IOException {
        Memory wire = new Memory();
        SealedRecords out = new SealedRecords(wire, KEY);
        writeFrame(out, 1, body(SealedRecords.CHUNK + 5, 1));
        writeFrame(out, 2, body(10, 2));
        wire.bytes[FrameHeader.BYTES + SealedRecords.TAG + 7] ^= 1; // in the first frame's body
        SealedRecords in = new SealedRecords(wire, KEY);
        ByteBuffer header = FrameHeader.buffer(false);
        assertThat(in.readHeader(header)).isTrue();
        assertThatThrownBy(() -> in.readBody(null, SealedRecords.CHUNK + 5))
                .isInstanceOf(IOException.class).hasMessageContaining("failed authentication");
    }

    @Test
    void aFlippedBit_aRepeatedRecord_orAnotherKey_failAuthentication() throws IOException {
        Memory wire = new Memory();
        SealedRecords out = new SealedRecords(wire, KEY);
        writeFrame(out, 1, body(100, 1));
        writeFrame(out, 2, body(100, 2));
        byte[] valid = wire.bytes.clone();
        int headerRecord = FrameHeader.BYTES + SealedRecords.TAG;

        Memory flipped = new Memory();
        flipped.bytes = valid.clone();
        flipped.bytes[headerRecord + 50] ^= 0x10;
        SealedRecords in = new SealedRecords(flipped, KEY);
        assertThat(in.readHeader(FrameHeader.buffer(false))).isTrue();
        assertThatThrownBy(() -> in.readBody(ByteBuffer.allocateDirect(100), 100))
                .isInstanceOf(IOException.class).hasMessageContaining("failed authentication");

        Memory replayed = new Memory(); // the first frame twice: its records' counters no longer match
        int frame = headerRecord + 100 + SealedRecords.TAG;
        replayed.bytes = Arrays.copyOf(valid, frame * 2);
        System.arraycopy(valid, 0, replayed.bytes, frame, frame);
        SealedRecords again = new SealedRecords(replayed, KEY);
        readFrame(again, 1);
        assertThatThrownBy(() -> again.readHeader(FrameHeader.buffer(false)))
                .isInstanceOf(IOException.class).hasMessageContaining("failed authentication");

        Memory other = new Memory();
        other.bytes = valid.clone();
        byte[] otherKey = KEY.clone();
        otherKey[0] ^= 1;
        assertThatThrownBy(() -> new SealedRecords(other, otherKey).readHeader(FrameHeader.buffer(false)))
                .isInstanceOf(IOException.class).hasMessageContaining("failed authentication");
    }
}
