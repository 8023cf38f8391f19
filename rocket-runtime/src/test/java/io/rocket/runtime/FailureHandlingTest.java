package io.rocket.runtime;

import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.core.Application;
import io.rocket.core.CacheSize;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.InputFiles;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import io.rocket.core.ResultSink;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.summary.RunSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/** One bad item or pair never kills or hangs a run: exactly its pairs fail, with its name, and the rest complete. */
class FailureHandlingTest {

    /** Records outcomes by pair. */
    static final class Outcomes<K, R> implements ResultSink<K, R> {
        final Map<Long, R> ok = new ConcurrentHashMap<>();
        final Map<Long, String> failed = new ConcurrentHashMap<>();

        static long key(int i, int j) {
            return ((long) i << 32) | j;
        }

        @Override
        public void accept(int i, int j, K left, K right, R result) {
            ok.put(key(i, j), result);
        }

        @Override
        public void failed(int i, int j, K left, K right, Throwable error) {
            failed.put(key(i, j), error.getMessage());
        }
    }

    /** The synthetic app with parse failing for some items and compare failing for one pair. */
    static final class Faulty implements Application<Integer, Long> {
        final SyntheticApp inner;
        final Set<Integer> badItems;
        final int badI;
        final int badJ;
        final java.util.concurrent.atomic.AtomicInteger badParses = new java.util.concurrent.atomic.AtomicInteger();

        Faulty(int n, Set<Integer> badItems, int badI, int badJ) {
            this.inner = new SyntheticApp(new SyntheticApp.Config(n, 32, Cost.ZERO, Cost.ZERO, Cost.ZERO, 5));
            this.badItems = badItems;
            this.badI = badI;
            this.badJ = badJ;
        }

        @Override
        public List<Path> inputFiles(Integer key) {
            return List.of();
        }

        @Override
        public long maxFileBytes() {
            return 0;
        }

        @Override
        public long maxInputBytes() {
            return inner.maxInputBytes();
        }

        @Override
        public long maxItemBytes() {
            return inner.maxItemBytes();
        }

        @Override
        public long maxResultBytes() {
            return inner.maxResultBytes();
        }

        @Override
        public long parse(Integer key, InputFiles files, HostBuffer output) {
            if (badItems.contains(key)) {
                badParses.incrementAndGet();
                throw new IllegalArgumentException("corrupt record");
            }
            return inner.parse(key, files, output);
        }

        @Override
        public Kernels<Integer> kernels(DeviceKind kind) {
            Kernels<Integer> k = inner.kernels(kind);
            return new Kernels<>() {
                @Override
                public long preprocess(Integer key, DeviceBuffer in, DeviceBuffer out, KernelContext c) throws Exception {
                    return k.preprocess(key, in, out, c);
                }

                @Override
                public long compare(Integer l, DeviceBuffer a, Integer r, DeviceBuffer b, DeviceBuffer res,
                                    KernelContext c) throws Exception {
                    if (l == badI && r == badJ) {
                        throw new ArithmeticException("singular pair");
                    }
                    return k.compare(l, a, r, b, res, c);
                }
            };
        }

        @Override
        public Long postprocess(Integer left, Integer right, HostBuffer result) {
            return inner.postprocess(left, right, result);
        }
    }

    @Test
    @Timeout(60)
    void failingItemsAndPair_failExactlyTheirPairs_restComplete() throws Exception {
        int n = 60;
        Set<Integer> bad = Set.of(3, 17, 59);
        Faulty app = new Faulty(n, bad, 5, 9);
        Outcomes<Integer, Long> outcomes = new Outcomes<>();
        RocketOptions options = RocketOptions.defaults().withDevice(DeviceSpec.parse("cpu:2"))
                .withCaches(new CacheSize(-1, 4), new CacheSize(-1, 2)).withConcurrentJobs(8).withTileSize(4);
        RunSummary summary = Rocket.run(app, app.inner.keys(), options, outcomes);

        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                long key = Outcomes.key(i, j);
                boolean shouldFail = bad.contains(i) || bad.contains(j) || (i == 5 && j == 9);
                if (shouldFail) {
                    assertThat(outcomes.failed).as("pair %d,%d", i, j).containsKey(key);
                    assertThat(outcomes.ok).doesNotContainKey(key);
                } else {
                    assertThat(outcomes.ok.get(key)).as("pair %d,%d", i, j).isEqualTo(SyntheticApp.expected(5, i, j));
                }
            }
        }
        assertThat(outcomes.failed.get(Outcomes.key(3, 4))).contains("item 3").contains("corrupt record");
        assertThat(outcomes.failed.get(Outcomes.key(5, 9))).contains("compare failed").contains("singular pair");
        long expectedFailures = outcomes.failed.size();
        assertThat(summary.errors).isEqualTo(expectedFailures);
        assertThat(summary.failures).extracting(RunSummary.Failure::item).containsExactly(3, 17, 59);
        // A failed item is tried once, not again by every pair that needs it.
        assertThat(app.badParses.get()).isEqualTo(bad.size());
    }

    /** An app whose items are files: the item is the file's bytes, compare adds their lengths. */
    static final class FileLengths implements Application<Path, Long> {
        @Override
        public String label(Path key) {
            return key.getFileName().toString();
        }

        @Override
        public List<Path> inputFiles(Path key) {
            return List.of(key);
        }

        @Override
        public long maxFileBytes() {
            return 1024;
        }

        @Override
        public long maxInputBytes() {
            return 8;
        }

        @Override
        public long maxItemBytes() {
            return 8;
        }

        @Override
        public long maxResultBytes() {
            return 8;
        }

        @Override
        public long parse(Path key, InputFiles files, HostBuffer output) {
            ByteBuffer bytes = files.bytes(0);
            output.byteBuffer().putLong(0, bytes.remaining());
            return 8;
        }

        @Override
        public Kernels<Path> kernels(DeviceKind kind) {
            return new Kernels<>() {
                @Override
                public long preprocess(Path key, DeviceBuffer in, DeviceBuffer out, KernelContext c) {
                    out.byteBuffer().putLong(0, in.byteBuffer().getLong(0));
                    return 8;
                }

                @Override
                public long compare(Path l, DeviceBuffer a, Path r, DeviceBuffer b, DeviceBuffer res, KernelContext c) {
                    res.byteBuffer().putLong(0, a.byteBuffer().getLong(0) + b.byteBuffer().getLong(0));
                    return 8;
                }
            };
        }

        @Override
        public Long postprocess(Path left, Path right, HostBuffer result) {
            return result.byteBuffer().getLong(0);
        }
    }

    @Test
    @Timeout(60)
    void missingUnreadableAndOversizedFiles_failTheirPairsWithTheFileName(@TempDir Path dir) throws Exception {
        List<Path> keys = new ArrayList<>();
        for (int k = 0; k < 6; k++) {
            Path f = dir.resolve("f" + k + ".bin");
            Files.write(f, new byte[10 * (k + 1)]);
            keys.add(f);
        }
        keys.add(dir.resolve("missing.bin"));
        Path directory = Files.createDirectory(dir.resolve("a-directory.bin"));
        keys.add(directory);
        Path big = dir.resolve("big.bin");
        Files.write(big, new byte[2048]);
        keys.add(big);
        Outcomes<Path, Long> outcomes = new Outcomes<>();
        RunSummary summary = Rocket.run(new FileLengths(), keys, RocketOptions.defaults(), outcomes);

        assertThat(outcomes.ok).hasSize(15);
        assertThat(outcomes.ok.get(Outcomes.key(0, 5))).isEqualTo(10 + 60);
        assertThat(outcomes.failed).hasSize(36 - 15);
        assertThat(summary.failures).hasSize(3);
        assertThat(summary.failures.get(0).error()).contains("missing.bin").contains("no such file");
        assertThat(summary.failures.get(1).error()).contains("a-directory.bin");
        assertThat(summary.failures.get(2).error()).contains("big.bin").contains("2048 bytes");
    }
}
