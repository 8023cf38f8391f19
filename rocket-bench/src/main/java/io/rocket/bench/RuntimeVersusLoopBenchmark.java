package io.rocket.bench;

import io.rocket.core.CacheSize;
import io.rocket.core.ResultSink;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.summary.RunSummary;
import io.rocket.runtime.Rocket;
import io.rocket.runtime.RocketOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;

/**
 * Pairs per second of a cheap user function (a 64-float dot product) over every pair of {@link #ITEMS} items: Rocket
 * on {@code cpu} devices with every item cached, against the plain parallel loop over preloaded items that a user
 * would write, on as many threads as the devices. Both are measured in one JMH run, so their ratio is taken side by
 * side; the score is pairs per second (one operation is one pair).
 *
 * <pre>
 * mvn -B -q package -DskipTests -pl rocket-bench -am
 * java -jar rocket-bench/target/benchmarks.jar RuntimeVersusLoop
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RuntimeVersusLoopBenchmark {
    /** Items per run: 79,800 pairs, a run of a few tenths of a second. */
    static final int ITEMS = 400;
    static final int PAIRS = ITEMS * (ITEMS - 1) / 2;

    /** Devices (Rocket) and threads (the loop). */
    @Param({"1", "2"})
    public int threads;

    private final DotProductApp app = new DotProductApp();
    private List<Integer> keys;
    private float[][] vectors;
    private RocketOptions options;
    private ForkJoinPool pool;

    @Setup
    public void setUp() {
        keys = new ArrayList<>();
        vectors = new float[ITEMS][];
        for (int i = 0; i < ITEMS; i++) {
            keys.add(i);
            vectors[i] = Vectors.vector(i);
        }
        // Caches that hold every item: the runtime's per-pair cost, not reloads, is what is measured.
        options = RocketOptions.defaults().withDevice(DeviceSpec.parse("cpu:" + threads))
                .withCaches(new CacheSize(-1, ITEMS), new CacheSize(-1, ITEMS));
        pool = new ForkJoinPool(threads);
    }

    /** Rocket over every pair; the sink sums the results, as a user's sink would consume them. */
    @Benchmark
    @OperationsPerInvocation(PAIRS)
    public double rocket() throws Exception {
        Sum sink = new Sum();
        RunSummary summary = Rocket.run(app, keys, options, sink);
        if (summary.pairs != PAIRS || sink.count.sum() != PAIRS) {
            throw new IllegalStateException("expected " + PAIRS + " pairs, got " + sink.count.sum());
        }
        return sink.sum.sum();
    }

    /** The plain loop: row i against every j &gt; i, rows spread over the threads, results summed. */
    @Benchmark
    @OperationsPerInvocation(PAIRS)
    public double loop() throws Exception {
        return pool.submit(() -> IntStream.range(0, ITEMS).parallel().mapToDouble(i -> {
            double row = 0;
            for (int j = i + 1; j < ITEMS; j++) {
                row += Vectors.dot(vectors[i], vectors[j]);
            }
            return row;
        }).sum()).get();
    }

    /** Counts and sums results; thread-safe, as the runtime delivers them from its CPU pool. */
    private static final class Sum implements ResultSink<Integer, Float> {
        final LongAdder count = new LongAdder();
        final DoubleAdder sum = new DoubleAdder();

        @Override
        public void accept(int i, int j, Integer left, Integer right, Float result) {
            count.increment();
            sum.add(result);
        }

        @Override
        public void failed(int i, int j, Integer left, Integer right, Throwable error) {
            throw new IllegalStateException("pair " + i + ", " + j + " failed", error);
        }
    }
}
