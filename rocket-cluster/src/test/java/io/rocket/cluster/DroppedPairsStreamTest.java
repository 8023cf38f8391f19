package io.rocket.cluster;

import io.rocket.core.ResultCodec;
import io.rocket.core.ResultSink;
import io.rocket.steal.PairSet;
import io.rocket.results.reduce.DroppedPairs;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dropped pairs on their way to rank 0: gathered into runs, decoded by the result stream's reader, and marked
 * finished by the collector, each pair once, in a few records rather than one per pair.
 */
class DroppedPairsStreamTest {

    @Property(tries = 200)
    void runs_carryEveryDroppedPairOnce_inFewRecords(@ForAll @IntRange(min = 2, max = 60) int n,
                                                    @ForAll @IntRange(min = 1, max = 6) int lanes,
                                                    @ForAll long seed) throws IOException {
        // Pairs arrive tile row by tile row from several lanes at once, as a node's devices finish them.
        List<List<int[]>> perLane = new ArrayList<>();
        for (int l = 0; l < lanes; l++) {
            perLane.add(new ArrayList<>());
        }
        Random random = new Random(seed);
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                perLane.get((i / 4) % lanes).add(new int[] {i, j});
            }
        }
        DroppedRuns runs = new DroppedRuns();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        int records = 0;
        int[] next = new int[lanes];
        int left = n * (n - 1) / 2;
        while (left > 0) {
            int l = random.nextInt(lanes);
            if (next[l] < perLane.get(l).size()) {
                int[] p = perLane.get(l).get(next[l]++);
                records += runs.add(p[0], p[1], out);
                left--;
            }
        }
        records += runs.writeAll(out);
        assertThat(runs.isEmpty()).isTrue();

        List<Integer> keys = IntStream.range(0, n).boxed().toList();
        Marked marked = new Marked(n);
        ResultCollector<Integer, Long> collector = new ResultCollector<>(marked, marked, new PairSet(n),
                () -> marked.complete++);
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        DataOutputStream b = new DataOutputStream(batch);
        b.writeInt(records);
        b.write(bytes.toByteArray());
        int pairs = ResultStream.deliver(new DataInputStream(new ByteArrayInputStream(batch.toByteArray())),
                ResultCodec.LONG, keys, collector, collector, false);
        assertThat(pairs).isEqualTo(n * (n - 1) / 2);
        assertThat(collector.finished().isComplete()).isTrue();
        assertThat(collector.dropped()).isEqualTo(pairs);
        assertThat(collector.duplicates()).isZero();
        assertThat(marked.told.isComplete()).isTrue();
        assertThat(marked.complete).isPositive();
        // A run holds up to a row's columns: far fewer records than pairs once rows are long.
        assertThat(records).isLessThanOrEqualTo(Math.max(n * (1 + lanes), pairs / 2 + DroppedRuns.OPEN_RUNS));
    }

    @Test
    void collector_countsPairsAlreadyIn_asDuplicates_andTellsTheSinkOnlyNewOnes() {
        int n = 10;
        Marked marked = new Marked(n);
        ResultCollector<Integer, Long> collector = new ResultCollector<>(marked, marked, new PairSet(n), () -> { });
        collector.accept(1, 4, 1, 4, 7L);
        collector.dropped(1, 2, 5); // (1,2) .. (1,6), of which (1,4) is in
        assertThat(collector.dropped()).isEqualTo(4);
        assertThat(collector.duplicates()).isEqualTo(1);
        assertThat(collector.count()).isEqualTo(5);
        assertThat(marked.runs).containsExactly(List.of(1, 2, 2), List.of(1, 5, 2));
    }

    /** The sink behind the collector: which dropped pairs it was told of. */
    private static final class Marked implements ResultSink<Integer, Long>, DroppedPairs {
        final PairSet told;
        final List<List<Integer>> runs = Collections.synchronizedList(new ArrayList<>());
        int complete;

        Marked(int n) {
            told = new PairSet(n);
        }

        @Override
        public void accept(int i, int j, Integer left, Integer right, Long result) {
        }

        @Override
        public void failed(int i, int j, Integer left, Integer right, Throwable error) {
        }

        @Override
        public void dropped(int i, int fromJ, int count) {
            runs.add(List.of(i, fromJ, count));
            for (int j = fromJ; j < fromJ + count; j++) {
                assertThat(told.add(i, j)).as("pair (%d, %d) told once", i, j).isTrue();
            }
        }
    }
}
