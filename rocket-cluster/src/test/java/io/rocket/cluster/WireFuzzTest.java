package io.rocket.cluster;

import io.rocket.cluster.l3.L3Message;
import io.rocket.core.ResultCodec;
import io.rocket.core.ResultSink;
import io.rocket.steal.Region;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Fuzzing of everything that decodes bytes from the network: the control messages ({@link Wire}), result batches
 * ({@link ResultStream#deliver}), and the data plane's frame header and handshake hello. Whatever the bytes, a
 * decoder either returns or rejects them with an IOException or IllegalArgumentException; it never allocates more
 * than a small multiple of the input (a count or length field is never trusted beyond what the message holds), and
 * it never loops beyond the input. Valid messages, cut short or with bytes changed, get the same treatment.
 */
class WireFuzzTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final List<Integer> KEYS = java.util.stream.IntStream.range(0, 50).boxed().toList();

    /** A decoder of one message body. */
    @FunctionalInterface
    interface Decoder {
        void decode(DataInputStream in) throws Exception;
    }

    private static final Decoder[] DECODERS = {
            Wire.Hello::read,
            Wire::readRegions,
            Wire::readL3,
            in -> ResultStream.deliver(in, ResultCodec.LONG, KEYS, checkingSink()),
            in -> ResultStream.deliver(in, ResultCodec.STRING, KEYS, checkingSink()),
            in -> { // the reader fills exactly one header, or meets the end of the stream
                byte[] header = in.readNBytes(FrameHeader.BYTES);
                if (header.length < FrameHeader.BYTES) {
                    throw new java.io.EOFException();
                }
                new FrameHeader().read(ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN));
            },
            in -> DataHandshake.Hello.parse(in.readAllBytes()),
    };

    /** A sink that checks the decoder hands it only pairs of this run. */
    private static <R> ResultSink<Integer, R> checkingSink() {
        return new ResultSink<>() {
            @Override
            public void accept(int i, int j, Integer left, Integer right, R result) {
                assertThat(i).isBetween(0, j - 1);
                assertThat(j).isLessThan(KEYS.size());
            }

            @Override
            public void failed(int i, int j, Integer left, Integer right, Throwable error) {
                accept(i, j, left, right, null);
            }
        };
    }

    /**
     * Runs a decoder on {@code bytes}: a clean rejection is fine, anything else fails the property, and so does
     * allocating more than a bounded multiple of the input (plus the 64 KiB a modified-UTF-8 string may claim).
     */
    private static void decodeSafely(Decoder decoder, byte[] bytes) {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        try {
            decoder.decode(new DataInputStream(new ByteArrayInputStream(bytes)));
        } catch (IOException | IllegalArgumentException e) {
            // rejected: that is all we ask
        } catch (Throwable t) {
            fail("decoder crashed on " + bytes.length + " bytes: " + t, t);
        }
        long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
        assertThat(allocated).as("bytes allocated decoding %d input bytes", bytes.length)
                .isLessThan(512 * 1024 + 64L * bytes.length);
    }

    @Property(tries = 1000)
    void randomBytes_areDecodedOrCleanlyRejected(@ForAll @Size(max = 300) byte[] bytes,
                                                 @ForAll @IntRange(min = 0, max = 6) int decoder) {
        decodeSafely(DECODERS[decoder], bytes);
    }

    /** Bodies that start with an int that decoders take for a count or length: small, huge, negative. */
    @Property(tries = 600)
    void countsAndLengths_beyondTheMessage_areRejectedWithoutAllocating(
            @ForAll("counts") int count, @ForAll @Size(max = 64) byte[] rest,
            @ForAll @IntRange(min = 0, max = 6) int decoder, @ForAll @IntRange(min = 0, max = 21) int prefix) {
        // The count sits where each decoder reads one: first for regions and results, after the fixed fields of an
        // L3 message (kind, id, item, requester, hop = 21 bytes); other prefixes shift it around.
        ByteBuffer b = ByteBuffer.allocate(prefix + 4 + rest.length);
        b.put(new byte[prefix]).putInt(count).put(rest);
        decodeSafely(DECODERS[decoder], b.array());
    }

    @Provide
    Arbitrary<Integer> counts() {
        return Arbitraries.oneOf(Arbitraries.integers().between(-3, 40), Arbitraries.integers(),
                Arbitraries.of(Integer.MAX_VALUE, Integer.MIN_VALUE, 1 << 20, 1 << 28, 0x7FFFFFF0));
    }

    // --- valid messages survive the round trip; cut short or changed they are still handled -------------------

    private static byte[] body(Wire.Body body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            body.write(out);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return bytes.toByteArray();
    }

    private static DataInputStream in(byte[] bytes) {
        return new DataInputStream(new ByteArrayInputStream(bytes));
    }

    @Property(tries = 200)
    void regions_roundTrip_andMutationsAreHandled(@ForAll @Size(max = 20) List<@IntRange(min = 0, max = 5000) Integer> c,
                                                  @ForAll @IntRange(min = 0, max = 1000) int cut,
                                                  @ForAll byte flip) throws IOException {
        List<Region> regions = new ArrayList<>();
        for (int k = 0; k + 1 < c.size(); k += 2) {
            regions.add(new Region(c.get(k), c.get(k) + 3, c.get(k + 1), c.get(k + 1) + 5, k & 3));
        }
        byte[] bytes = body(out -> Wire.writeRegions(out, regions));
        assertThat(Wire.readRegions(in(bytes))).isEqualTo(regions);
        mutations(bytes, cut, flip, m -> decodeSafely(Wire::readRegions, m));
    }

    @Property(tries = 200)
    void l3Messages_roundTrip_andMutationsAreHandled(@ForAll @IntRange(min = 0, max = 2) int kind,
                                                     @ForAll long id, @ForAll int item,
                                                     @ForAll @Size(max = 8) long[] candidates,
                                                     @ForAll @IntRange(min = 0, max = 1000) int cut,
                                                     @ForAll byte flip) throws IOException {
        L3Message m = new L3Message(L3Message.Kind.values()[kind], id, item, 3, 1, candidates);
        byte[] bytes = body(out -> Wire.writeL3(out, m));
        L3Message back = Wire.readL3(in(bytes));
        assertThat(back.kind()).isEqualTo(m.kind());
        assertThat(back.requestId()).isEqualTo(id);
        assertThat(back.candidates()).isEqualTo(candidates);
        mutations(bytes, cut, flip, x -> decodeSafely(Wire::readL3, x));
    }

    @Property(tries = 200)
    void resultBatches_roundTrip_andMutationsAreHandled(@ForAll @Size(max = 30) List<@IntRange(min = 0, max = 48) Integer> rows,
                                                        @ForAll @IntRange(min = 0, max = 2000) int cut,
                                                        @ForAll byte flip) throws IOException {
        List<long[]> sent = new ArrayList<>();
        byte[] batch = body(out -> {
            out.writeInt(rows.size());
            for (int i : rows) {
                int j = i + 1;
                if (i % 5 == 0) {
                    out.writeByte(0);
                    out.writeInt(i);
                    out.writeInt(j);
                    out.writeUTF("failed " + i);
                    sent.add(new long[]{i, j, -1});
                } else {
                    out.writeByte(1);
                    out.writeInt(i);
                    out.writeInt(j);
                    ResultCodec.LONG.write((long) i * j, out);
                    sent.add(new long[]{i, j, (long) i * j});
                }
            }
        });
        List<long[]> got = new ArrayList<>();
        ResultStream.deliver(in(batch), ResultCodec.LONG, KEYS, new ResultSink<Integer, Long>() {
            @Override
            public void accept(int i, int j, Integer left, Integer right, Long result) {
                got.add(new long[]{i, j, result});
            }

            @Override
            public void failed(int i, int j, Integer left, Integer right, Throwable error) {
                assertThat(error.getMessage()).isEqualTo("failed " + i);
                got.add(new long[]{i, j, -1});
            }
        });
        assertThat(got).usingElementComparator(java.util.Arrays::compare).isEqualTo(sent);
        mutations(batch, cut, flip, m -> decodeSafely(DECODERS[3], m));
    }

    @Property(tries = 200)
    void hellos_roundTrip_andMutationsAreHandled(@ForAll int rank, @ForAll @IntRange(min = 0, max = 3) int flags,
                                                 @ForAll @IntRange(min = 0, max = 100) int cut, @ForAll byte flip)
            throws IOException {
        byte[] nonce = new byte[DataHandshake.NONCE];
        new java.util.Random(rank).nextBytes(nonce);
        byte[] bytes = ByteBuffer.allocate(DataHandshake.HELLO_BYTES).put(DataHandshake.MAGIC)
                .put(DataHandshake.VERSION).put((byte) flags).putInt(rank).put(nonce).array();
        DataHandshake.Hello hello = DataHandshake.Hello.parse(bytes);
        assertThat(hello.rank()).isEqualTo(rank);
        assertThat(hello.flags()).isEqualTo((byte) flags);
        assertThat(hello.nonce()).isEqualTo(nonce);
        mutations(bytes, cut, flip, m -> decodeSafely(DECODERS[6], m));
    }

    /** The message cut at {@code cut} (mod its length), and with the byte there xor-ed with {@code flip}. */
    private static void mutations(byte[] bytes, int cut, byte flip, Consumer<byte[]> check) {
        if (bytes.length == 0) {
            return;
        }
        int at = cut % bytes.length;
        check.accept(java.util.Arrays.copyOf(bytes, at));
        byte[] changed = bytes.clone();
        changed[at] ^= flip == 0 ? 1 : flip;
        check.accept(changed);
    }
}
