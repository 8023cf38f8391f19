package io.rocket.runtime;

import io.rocket.cluster.ClusterOptions;
import io.rocket.core.Application;
import io.rocket.core.CacheSize;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.InputFiles;
import io.rocket.core.Kernels;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.summary.CacheStats;
import io.rocket.core.summary.RunSummary;
import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.testkit.SyntheticCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Items of mixed sizes (8 bytes to the declared 4 KiB) through every cache level, each a byte budget: the devices' L1
 * (sim devices: cpu devices read L2 in place), the node's L2, other nodes' L2 through the L3, and the disk cache. On
 * cpu every result is exact (the compare checks each cached item's length and both ends while it reads it in L2, and
 * the check sink every value); on sim, whose kernels touch no data, every pair arrives once, and L1 holds as many
 * items as their actual sizes allow rather than as many maximal slots as fit.
 */
class VariableSizeAllLevelsTest {
    private static final long SEED = 23;
    private static final int MAX = 4096;

    private static SyntheticApp app(int n) {
        return new SyntheticApp(new SyntheticApp.Config(n, MAX, Cost.parse("0.05"), Cost.ZERO, Cost.ZERO, SEED),
                true);
    }

    /** Two cpu devices reading an L2 of {@code host} in place. */
    private static RocketOptions options(CacheSize host, CacheSize device) {
        return options("cpu:2", host, device);
    }

    /** Two devices of {@code spec}, each with an L1 of {@code device} if it has memory of its own, and an L2. */
    private static RocketOptions options(String spec, CacheSize host, CacheSize device) {
        return RocketOptions.defaults().withDevice(DeviceSpec.parse(spec)).withThreads(2, 1).withTileSize(4)
                .withCaches(host, device);
    }

    private static RunSummary single(int n, RocketOptions options) throws Exception {
        SyntheticApp app = app(n);
        // sim kernels touch no data: their results are zeros, so only that every pair arrives once is checked
        boolean values = options.device().kind() == io.rocket.core.DeviceKind.CPU;
        SyntheticCheck check = new SyntheticCheck(SEED, n, values);
        RunSummary summary = Rocket.run(app, app.keys(), options, check);
        assertThat(check.problem()).isNull();
        assertThat(summary.errors).isZero();
        assertThat(summary.pairs).isEqualTo((long) n * (n - 1) / 2);
        return summary;
    }

    @Test
    @Timeout(60)
    void singleNode_l1OfFourMaximalSlotsHoldsMoreMixedItemsAndEvictsByBytes() throws Exception {
        RunSummary summary = single(70, options("sim:2", new CacheSize(-1, 12), new CacheSize(-1, 4)));
        CacheStats l1 = summary.cache.get("device");
        assertThat(l1.slots()).as("items the devices' L1s held at once, in 4 maximal items' bytes each")
                .isGreaterThan(2 * 4);
        assertThat(l1.slotBytes()).isEqualTo(MAX);
        assertThat(l1.evictions()).isPositive();
        assertThat(summary.cache.get("host").evictions()).isPositive();
    }

    @Test
    @Timeout(60)
    void singleNode_aDeviceCacheGivenInBytesIsABudget() throws Exception {
        // 20 KiB: five maximal items, and many more of the items' actual sizes (about half the maximum on average).
        RunSummary summary = single(60, options("sim:2", new CacheSize(-1, 10), CacheSize.parse("20K")));
        assertThat(summary.cache.get("device").slots()).isGreaterThan(2 * 5);
    }

    @Test
    @Timeout(90)
    void singleNode_theDiskCacheServesMixedSizesExactlyOnTheNextRun(@TempDir Path dir) throws Exception {
        int n = 40;
        RocketOptions options = options(new CacheSize(-1, 8), new CacheSize(-1, 3))
                .withInputs(InputOptions.DEFAULT.withDiskCache(dir.resolve("cache"), 64L << 20, "mixed-sizes"));
        for (int run = 0; run < 2; run++) {
            WithFiles app = new WithFiles(app(n), dir);
            SyntheticCheck check = new SyntheticCheck(SEED, n, true);
            RunSummary summary = Rocket.run(app, app.synthetic.keys(), options, check);
            assertThat(check.problem()).isNull();
            assertThat(summary.errors).isZero();
            if (run == 1) {
                assertThat(summary.cache.get("disk").hits()).as("each item read from the disk cache, some more than once")
                        .isGreaterThanOrEqualTo(n);
            }
        }
    }

    /**
     * The synthetic app with one small input file per item, which the disk cache needs to key an item (items without
     * files are never cached on disk); parse ignores the file and writes the synthetic item.
     */
    private static final class WithFiles implements Application<Integer, Long> {
        final SyntheticApp synthetic;
        private final Path dir;

        WithFiles(SyntheticApp synthetic, Path dir) throws IOException {
            this.synthetic = synthetic;
            this.dir = dir;
            for (int item : synthetic.keys()) {
                Path file = dir.resolve(item + ".in");
                if (!Files.exists(file)) {
                    Files.writeString(file, Integer.toString(item));
                }
            }
        }

        @Override
        public List<Path> inputFiles(Integer key) {
            return List.of(dir.resolve(key + ".in"));
        }

        @Override
        public long maxFileBytes() {
            return 64;
        }

        @Override
        public long maxInputBytes() {
            return synthetic.maxInputBytes();
        }

        @Override
        public long maxItemBytes() {
            return synthetic.maxItemBytes();
        }

        @Override
        public long maxResultBytes() {
            return synthetic.maxResultBytes();
        }

        @Override
        public long parse(Integer key, InputFiles files, HostBuffer output) {
            return synthetic.parse(key, files, output);
        }

        @Override
        public Kernels<Integer> kernels(DeviceKind kind) {
            return synthetic.kernels(kind);
        }

        @Override
        public Long postprocess(Integer left, Integer right, HostBuffer result) {
            return synthetic.postprocess(left, right, result);
        }
    }

    @Test
    @Timeout(120)
    void cluster_mixedSizesThroughL2InPlaceAndL3_everyPairOnceAndExact() throws Exception {
        int n = 72;
        int nodes = 3;
        String group = UUID.randomUUID().toString();
        SyntheticCheck check = new SyntheticCheck(SEED, n, true);
        List<RunSummary> all = InJvmClusterTest.runCluster(nodes, r -> app(n),
                options(new CacheSize(-1, 8), new CacheSize(-1, 3)), r -> ClusterOptions.loopback(group, r, nodes),
                check);
        assertThat(check.problem()).isNull();
        RunSummary rank0 = all.get(0);
        assertThat(rank0.pairs).isEqualTo((long) n * (n - 1) / 2);
        assertThat(rank0.errors).isZero();
        assertThat(((Number) rank0.cluster.get("l3_hits")).longValue()).as("items fetched from another node's L2")
                .isPositive();
        assertThat(rank0.cache.get("host").evictions()).isPositive();
        assertThat(rank0.cache.get("device").misses()).as("nothing copied: cpu reads L2 in place").isZero();
    }
}
