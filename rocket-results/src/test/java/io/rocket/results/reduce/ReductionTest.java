package io.rocket.results.reduce;

import io.rocket.core.Application;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.results.PairRecords;
import io.rocket.core.ResultCodec;
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

class ReductionTest {

    @Test
    void of_nothingGiven_isNoReduction() {
        assertThat(Reduction.of(null, null, null)).isNull();
    }

    @Test
    void of_topKZeroOrNegative_isRefusedInOneLine() {
        assertThatThrownBy(() -> Reduction.of(0, null, null)).isInstanceOf(RocketException.class)
                .hasMessage("--top-k must be at least 1, got 0");
        assertThatThrownBy(() -> Reduction.of(-3, null, null)).hasMessage("--top-k must be at least 1, got -3");
    }

    @Test
    void of_emptyBand_isRefused() {
        assertThatThrownBy(() -> Reduction.of(null, 2.0, 1.0)).isInstanceOf(RocketException.class)
                .hasMessageContaining("--min-score 2.0 is above --max-score 1.0");
    }

    @Test
    void inBand_boundsIncluded_nanNever() {
        Reduction band = Reduction.of(null, 1.0, 2.0);
        assertThat(band.inBand(1.0)).isTrue();
        assertThat(band.inBand(2.0)).isTrue();
        assertThat(band.inBand(2.5)).isFalse();
        assertThat(band.inBand(Double.NaN)).isFalse();
        assertThat(band.describe()).containsEntry("min_score", 1.0).containsEntry("max_score", 2.0)
                .doesNotContainKey("top_k");
    }

    @Test
    void score_ofNonNumericResult_namesTheApplication_andFailsThePair() {
        Application<Integer, Object> app = new TextApp();
        assertThatThrownBy(() -> app.score("text")).isInstanceOf(RocketException.class)
                .hasMessageContaining("TextApp").hasMessageContaining("override Application.score(R)");
        List<String> failures = new ArrayList<>();
        ResultSink<Integer, Object> sink = new ResultSink<>() {
            @Override
            public void accept(int i, int j, Integer left, Integer right, Object result) {
                throw new AssertionError("nothing is kept");
            }

            @Override
            public void failed(int i, int j, Integer left, Integer right, Throwable error) {
                failures.add(error.getMessage());
            }
        };
        KeptPairs<Integer, Object> kept = new KeptPairs<>(app, List.of(0, 1), Reduction.of(1, null, null), sink,
                null);
        kept.accept(0, 1, 0, 1, "text");
        kept.finish();
        assertThat(failures).singleElement().asString().startsWith("pair (0, 1) 0 × 1: no score for the reduction");
        assertThat(kept.scoreFailures()).isEqualTo(1);
    }

    @Test
    void droppedRecord_roundTrips_andBadOnesAreRefused() throws IOException {
        List<Integer> keys = IntStream.range(0, 10).boxed().toList();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PairRecords.writeDropped(new DataOutputStream(bytes), 2, 5, 4);
        List<int[]> runs = new ArrayList<>();
        DroppedSink sink = new DroppedSink(runs);
        int pairs = PairRecords.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())),
                ResultCodec.DOUBLE, keys, sink, sink, false, false);
        assertThat(pairs).isEqualTo(4);
        assertThat(runs).singleElement().isEqualTo(new int[] {2, 5, 4});

        ByteArrayOutputStream past = new ByteArrayOutputStream();
        PairRecords.writeDropped(new DataOutputStream(past), 2, 8, 3); // columns 8, 9, 10: 10 is no item
        assertThatThrownBy(() -> PairRecords.read(new DataInputStream(new ByteArrayInputStream(past.toByteArray())),
                ResultCodec.DOUBLE, keys, sink, sink, false, false)).isInstanceOf(IOException.class)
                .hasMessageContaining("bad dropped-pairs record (2, 8, 3)");

        // Where the reader names no receiver the run is refused, though this sink could take it: no sink is asked.
        assertThatThrownBy(() -> PairRecords.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())),
                ResultCodec.DOUBLE, keys, sink, null, false, false)).isInstanceOf(IOException.class)
                .hasMessage("a dropped-pairs record where only results are expected");
        assertThat(runs).hasSize(1);
    }

    private record DroppedSink(List<int[]> runs) implements ResultSink<Integer, Double>, DroppedPairs {
        @Override
        public void accept(int i, int j, Integer left, Integer right, Double result) {
        }

        @Override
        public void failed(int i, int j, Integer left, Integer right, Throwable error) {
        }

        @Override
        public void dropped(int i, int fromJ, int count) {
            runs.add(new int[] {i, fromJ, count});
        }
    }

    /** An application whose results are text, without a score. */
    private static final class TextApp implements Application<Integer, Object> {
        @Override
        public java.util.List<java.nio.file.Path> inputFiles(Integer key) {
            return List.of();
        }

        @Override
        public long maxInputBytes() {
            return 1;
        }

        @Override
        public long maxItemBytes() {
            return 1;
        }

        @Override
        public long maxResultBytes() {
            return 1;
        }

        @Override
        public long parse(Integer key, io.rocket.core.InputFiles files, io.rocket.core.HostBuffer output) {
            throw new UnsupportedOperationException();
        }

        @Override
        public io.rocket.core.Kernels<Integer> kernels(io.rocket.core.DeviceKind kind) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Object postprocess(Integer left, Integer right, io.rocket.core.HostBuffer result) {
            throw new UnsupportedOperationException();
        }
    }
}
