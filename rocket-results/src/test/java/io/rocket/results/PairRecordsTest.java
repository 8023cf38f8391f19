package io.rocket.results;

import io.rocket.core.ItemException;
import io.rocket.core.ItemTooLargeException;
import io.rocket.core.ResultCodec;
import io.rocket.core.ResultSink;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failed pair crosses the cluster's result stream with its message, and with whether an item was too large for the
 * run's buffers, so that rank 0's result store leaves it out as it does the failures of its own node.
 */
class PairRecordsTest {

    private static List<Throwable> roundTrip(Throwable error) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PairRecords.writeFailure(new DataOutputStream(bytes), 0, 1, error);
        List<Throwable> failures = new ArrayList<>();
        ResultSink<String, Long> sink = new ResultSink<>() {
            @Override
            public void accept(int i, int j, String left, String right, Long result) {
                throw new AssertionError("a failure read as a result");
            }

            @Override
            public void failed(int i, int j, String left, String right, Throwable e) {
                failures.add(e);
            }
        };
        PairRecords.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), ResultCodec.LONG,
                List.of("a", "b"), sink, false);
        return failures;
    }

    @Test
    void aFailureForAnItemTooLarge_isReadBackAsOne_otherFailuresAsThemselves() throws IOException {
        ItemTooLargeException tooLarge = new ItemTooLargeException("b.faa: needs 900 bytes, the slot holds 800", null);
        Throwable read = roundTrip(new ItemException(1, "item 1 (b): " + tooLarge.getMessage(), tooLarge)).get(0);
        assertThat(read).hasMessage("item 1 (b): b.faa: needs 900 bytes, the slot holds 800");
        assertThat(ItemTooLargeException.isCause(read)).isTrue();

        Throwable broken = roundTrip(new ItemException(1, "item 1 (b): truncated gzip data", null)).get(0);
        assertThat(broken).hasMessage("item 1 (b): truncated gzip data");
        assertThat(ItemTooLargeException.isCause(broken)).isFalse();
    }
}
