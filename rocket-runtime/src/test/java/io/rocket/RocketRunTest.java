package io.rocket;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.summary.RunSummary;
import io.rocket.runtime.Rocket;
import io.rocket.runtime.RocketOptions;
import io.rocket.cluster.ClusterOptions;
import io.rocket.testapp.NumberDistance;
import io.rocket.testapp.TextSimilarity;
import io.rocket.testapp.WordSimilarity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One programmatic call, {@link Rocket#run}, for a run on one node and for one node of a cluster run. */
class RocketRunTest {

    static {
        System.setProperty("java.net.preferIPv4Stack", "true");
    }

    private static final RocketOptions OPTIONS = RocketOptions.defaults().withThreads(1, 1).withConcurrentJobs(4)
            .withTileSize(4);
    private static final List<String> WORDS = List.of("river", "rivet", "driver", "diver", "liver", "olive", "over",
            "rover", "cover", "clover", "lover", "hover");

    /** Collects results by pair; fails on a pair seen twice or a failed pair. */
    static final class Collect implements ResultSink<String, Double> {
        final Map<List<Integer>, Double> results = new ConcurrentHashMap<>();

        @Override
        public void accept(int i, int j, String left, String right, Double result) {
            assertThat(results.put(List.of(i, j), result)).as("pair %d %d twice", i, j).isNull();
        }

        @Override
        public void failed(int i, int j, String left, String right, Throwable error) {
            throw new AssertionError("pair " + i + " " + j + " failed", error);
        }
    }

    @Test
    void withoutAClusterItRunsOnThisNode() throws Exception {
        for (RocketOptions options : List.of(OPTIONS, OPTIONS.withCluster(ClusterOptions.loopback("solo", 0, 1)))) {
            Collect sink = new Collect();
            RunSummary summary = Rocket.run(new WordSimilarity(), WORDS, options, sink);
            assertThat(summary.pairs).isEqualTo(66);
            assertThat(summary.cluster).isEmpty();
            assertThat(sink.results).hasSize(66);
        }
    }

    /** Word similarity whose kernels record where {@link Kernels#prepare} ran and whether each step came after it. */
    static final class PreparedWords extends WordSimilarity {
        final Map<String, Integer> prepares = new ConcurrentHashMap<>();
        final List<String> unprepared = new CopyOnWriteArrayList<>();

        @Override
        public Kernels<String> kernels(DeviceKind kind) {
            Kernels<String> plain = super.kernels(kind);
            return new Kernels<>() {
                @Override
                public void prepare(KernelContext context) {
                    prepares.merge(Thread.currentThread().getName(), 1, Integer::sum);
                }

                @Override
                public long preprocess(String key, DeviceBuffer input, DeviceBuffer output, KernelContext context)
                        throws Exception {
                    check("preprocess " + key);
                    return plain.preprocess(key, input, output, context);
                }

                @Override
                public long compare(String leftKey, DeviceBuffer left, String rightKey, DeviceBuffer right,
                                    DeviceBuffer result, KernelContext context) throws Exception {
                    check("compare " + leftKey + " " + rightKey);
                    return plain.compare(leftKey, left, rightKey, right, result, context);
                }

                private void check(String step) {
                    if (!prepares.containsKey(Thread.currentThread().getName())) {
                        unprepared.add(step);
                    }
                }
            };
        }
    }

    @Test
    void kernelsArePreparedOnceOnTheKernelThreadBeforeTheirFirstStep() throws Exception {
        PreparedWords app = new PreparedWords();
        Collect sink = new Collect();
        RunSummary summary = Rocket.run(app, WORDS, OPTIONS.withDevice(DeviceSpec.parse("cpu:2")), sink);
        assertThat(summary.pairs).isEqualTo(66);
        assertThat(app.unprepared).isEmpty();
        assertThat(app.prepares).hasSize(2).allSatisfy((thread, calls) -> {
            assertThat(thread).contains("kernel");
            assertThat(calls).isEqualTo(1);
        });
    }

    @Test
    @Timeout(120)
    void withAClusterEveryNodeMakesTheSameCallAndRankZeroGetsEveryPair() throws Exception {
        String group = "rocket-run-" + UUID.randomUUID();
        Collect rank0 = new Collect();
        Collect rank1 = new Collect();
        List<RunSummary> summaries = cluster(rank -> {
            WordSimilarity app = new WordSimilarity();
            app.q = 2;
            // The fingerprint is left empty: Rocket.run makes one, the same on both nodes.
            RocketOptions options = OPTIONS.withCluster(ClusterOptions.loopback(group, rank, 2));
            return () -> Rocket.run(app, WORDS, options, rank == 0 ? rank0 : rank1);
        });
        assertThat(summaries.get(0).pairs).isEqualTo(66);
        assertThat(summaries.get(0).cluster).isNotEmpty();
        assertThat(rank1.results).isEmpty();
        assertThat(rank0.results).hasSize(66);
        for (int i = 0; i < WORDS.size(); i++) {
            for (int j = i + 1; j < WORDS.size(); j++) {
                assertThat(rank0.results.get(List.of(i, j)))
                        .isEqualTo(TextSimilarity.similarity(WORDS.get(i), WORDS.get(j), 2));
            }
        }
    }

    @Test
    @Timeout(120)
    void nodesOfDifferentJobsDoNotRunTogether() throws Exception {
        String group = "rocket-run-" + UUID.randomUUID();
        List<String> other = new ArrayList<>(WORDS);
        other.set(3, "diverse");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<RunSummary>> ranks = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                List<String> keys = r == 0 ? WORDS : other;
                RocketOptions options = OPTIONS.withCluster(ClusterOptions.loopback(group, r, 2));
                ranks.add(pool.submit(() -> Rocket.run(new WordSimilarity(), keys, options, new Collect())));
            }
            for (Future<RunSummary> f : ranks) {
                assertThatThrownBy(() -> f.get(100, TimeUnit.SECONDS)).hasCauseInstanceOf(RocketException.class)
                        .hasMessageContaining("different item list or options than rank 0");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aClusterRunNeedsAResultCodec() {
        RocketOptions options = OPTIONS.withCluster(ClusterOptions.loopback("no-codec", 0, 2));
        ResultSink<Integer, Long> ignore = new ResultSink<>() {
            @Override
            public void accept(int i, int j, Integer left, Integer right, Long result) {
            }

            @Override
            public void failed(int i, int j, Integer left, Integer right, Throwable error) {
            }
        };
        assertThatThrownBy(() -> Rocket.run(new NumberDistance(), List.of(1, 2, 3), options, ignore))
                .isInstanceOf(RocketException.class)
                .hasMessage(NumberDistance.class.getName() + " must implement resultCodec() to run on several nodes "
                        + "(its results travel to rank 0)");
    }

    private interface Node {
        RunSummary run() throws Exception;
    }

    private static List<RunSummary> cluster(IntFunction<Node> nodeFor) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<RunSummary>> ranks = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                Node node = nodeFor.apply(r);
                ranks.add(pool.submit(node::run));
            }
            List<RunSummary> summaries = new ArrayList<>();
            for (Future<RunSummary> f : ranks) {
                summaries.add(f.get(100, TimeUnit.SECONDS));
            }
            return summaries;
        } finally {
            pool.shutdownNow();
        }
    }
}
