package io.rocket.results.reduce;

import io.rocket.core.ResultSink;
import io.rocket.testkit.KeptReference;
import io.rocket.testkit.SplitMix64;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reduction over random results, top-k settings, bands and node counts, pairs arriving in random order and on
 * random nodes: what rank 0 writes equals the same filter applied to the full result, each kept pair once, and
 * every pair is accounted for (ranked on rank 0 or dropped on a node).
 */
class ReductionPropertiesTest {

    /** Scores drawn from {@code levels} values, so that ties are common when levels are few. */
    private static double score(long seed, int levels, int i, int j) {
        return Math.floorMod(SplitMix64.mix(seed * 1_000_003L + (long) i * 65_537 + j), levels) - levels / 3;
    }

    @Property(tries = 300)
    void keptPairs_equalTheFilterOfTheFullResult(@ForAll @IntRange(min = 2, max = 40) int n,
                                                 @ForAll @IntRange(min = 0, max = 6) int k,
                                                 @ForAll @IntRange(min = 1, max = 4) int nodes,
                                                 @ForAll @IntRange(min = 1, max = 200) int levels,
                                                 @ForAll boolean smallerIsBetter,
                                                 @ForAll @IntRange(min = 0, max = 3) int band,
                                                 @ForAll long seed) {
        double min = (band & 1) != 0 ? score(seed, levels, 0, 1) : Double.NEGATIVE_INFINITY;
        double max = (band & 2) != 0 ? Math.max(min, score(seed, levels, 1, 2 % n == 0 ? 1 : 2) + levels / 4.0)
                : Double.POSITIVE_INFINITY;
        Reduction reduction = new Reduction(k, min, max);
        ScoredApp app = new ScoredApp(smallerIsBetter);
        List<Integer> keys = IntStream.range(0, n).boxed().toList();
        Written written = new Written();
        KeptPairs<Integer, Double> rank0 = new KeptPairs<>(app, keys, reduction, written, written);
        List<NodeFilter<Integer, Double>> filters = new ArrayList<>();
        for (int r = 1; r < nodes; r++) {
            // What the stream and rank 0's collector do: kept pairs and dropped runs reach rank 0's reduction.
            filters.add(new NodeFilter<>(app, n, reduction, rank0, rank0));
        }
        List<long[]> pairs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                pairs.add(new long[] {i, j});
            }
        }
        Random random = new Random(seed);
        Collections.shuffle(pairs, random);
        for (long[] p : pairs) {
            int i = (int) p[0];
            int j = (int) p[1];
            int node = random.nextInt(nodes);
            ResultSink<Integer, Double> at = node == 0 ? rank0 : filters.get(node - 1);
            at.accept(i, j, i, j, score(seed, levels, i, j));
        }
        rank0.finish();

        Set<Long> expected = KeptReference.kept(n, (i, j) -> score(seed, levels, i, j), k, min, max,
                smallerIsBetter);
        assertThat(written.duplicates).isZero();
        assertThat(written.pairs).isEqualTo(expected);
        assertThat(rank0.kept()).isEqualTo(expected.size());
        long droppedOnNodes = filters.stream().mapToLong(NodeFilter::dropped).sum();
        assertThat(rank0.received() + droppedOnNodes).isEqualTo(pairs.size());
        assertThat(written.dropped + rank0.kept()).as("progress sees every pair once, and kept ones again")
                .isEqualTo(pairs.size() + (k > 0 ? rank0.kept() : 0));
    }

    @Property(tries = 100)
    void topK_rankZeroHoldsAtMostItemsTimesK(@ForAll @IntRange(min = 2, max = 60) int n,
                                             @ForAll @IntRange(min = 1, max = 5) int k, @ForAll long seed) {
        PartnerHeaps heaps = new PartnerHeaps(n, k, false, true);
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                heaps.offer(i, j, score(seed, 1000, i, j), null);
            }
        }
        assertThat(heaps.entries()).isEqualTo((long) n * Math.min(k, n - 1));
    }

    /** The user's sink: which pairs were written, and how many pairs it was told were dropped. */
    private static final class Written implements ResultSink<Integer, Double>, DroppedPairs {
        final Set<Long> pairs = new HashSet<>();
        long duplicates;
        long dropped;

        @Override
        public synchronized void accept(int i, int j, Integer left, Integer right, Double result) {
            assertThat(i).isLessThan(j);
            if (!pairs.add(KeptReference.pair(i, j))) {
                duplicates++;
            }
        }

        @Override
        public void failed(int i, int j, Integer left, Integer right, Throwable error) {
            throw new AssertionError("no pair fails here: " + error);
        }

        @Override
        public synchronized void dropped(int i, int fromJ, int count) {
            dropped += count;
        }
    }
}
