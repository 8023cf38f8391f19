package io.rocket.cluster;

import io.rocket.core.ResultCodec;
import io.rocket.core.ResultSink;
import io.rocket.results.PairRecords;
import io.rocket.results.reduce.DroppedPairs;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The batch of a rank that writes its own part: acknowledged runs of pairs, then the part's lengths, read back as
 * sent; a trailer of lengths that is not whole, too long, or negative is refused before rank 0 keeps it.
 */
class PartLengthsTest {
    private static final List<Integer> KEYS = IntStream.range(0, 40).boxed().toList();

    /** A sink that takes acknowledged runs, as rank 0's collector does. */
    private static final class Acknowledged implements ResultSink<Integer, Long>, DroppedPairs {
        final List<int[]> runs = new ArrayList<>();

        @Override
        public void accept(int i, int j, Integer left, Integer right, Long result) {
            throw new AssertionError("a result where only acknowledgements were sent");
        }

        @Override
        public void failed(int i, int j, Integer left, Integer right, Throwable error) {
            throw new AssertionError("a failure where only acknowledgements were sent");
        }

        @Override
        public void dropped(int i, int fromJ, int count) {
            runs.add(new int[] {i, fromJ, count});
        }
    }

    private static byte[] batch(long... lengths) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(2);
        PairRecords.writeDropped(out, 3, 4, 10);
        PairRecords.writeDropped(out, 5, 30, 2);
        out.writeInt(lengths.length);
        for (long length : lengths) {
            out.writeLong(length);
        }
        return bytes.toByteArray();
    }

    private static ResultStream.Batch read(byte[] batch, Acknowledged sink) throws IOException {
        return ResultStream.deliverBatch(new DataInputStream(new ByteArrayInputStream(batch)), ResultCodec.LONG, KEYS,
                sink, sink, false);
    }

    @Test
    void acknowledgementsAndLengths_readBackAsSent() throws IOException {
        Acknowledged sink = new Acknowledged();
        ResultStream.Batch got = read(batch(1234L, 0L), sink);
        assertThat(got.pairs()).isEqualTo(12);
        assertThat(got.partLengths()).containsExactly(1234L, 0L);
        assertThat(sink.runs).containsExactly(new int[] {3, 4, 10}, new int[] {5, 30, 2});
    }

    @Test
    void aBatchWithoutLengths_isOneOfARankThatStreamsItsResults() throws IOException {
        byte[] whole = batch();
        byte[] without = java.util.Arrays.copyOf(whole, whole.length - 4); // no count of lengths at all
        assertThat(read(without, new Acknowledged()).partLengths()).isNull();
        assertThat(read(whole, new Acknowledged()).partLengths()).isEmpty();
    }

    @Test
    void badTrailers_areRefused() throws IOException {
        assertThatThrownBy(() -> read(batch(-1L), new Acknowledged())).hasMessageContaining("bad part length -1");
        byte[] cut = batch(5L, 6L);
        assertThatThrownBy(() -> read(java.util.Arrays.copyOf(cut, cut.length - 3), new Acknowledged()))
                .hasMessageContaining("bad part lengths");
        byte[] extra = java.util.Arrays.copyOf(batch(5L), batch(5L).length + 1);
        assertThatThrownBy(() -> read(extra, new Acknowledged())).hasMessageContaining("bad part lengths");
        long[] many = new long[ResultStream.MAX_PART_FILES + 1];
        assertThatThrownBy(() -> read(batch(many), new Acknowledged())).hasMessageContaining("bad part lengths");
    }
}
