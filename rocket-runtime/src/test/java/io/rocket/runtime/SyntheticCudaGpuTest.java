package io.rocket.runtime;

import io.rocket.testkit.Gpu;
import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.core.CacheSize;
import io.rocket.core.ResultSink;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.summary.RunSummary;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The synthetic app on the GPUs gives exactly the cpu device's results, through small caches (so items are evicted,
 * reloaded from L2 and reloaded from scratch) and item sizes that are not a multiple of 8 bytes.
 */
@Tag("gpu")
class SyntheticCudaGpuTest {

    @BeforeEach
    void gpu() {
        Gpu.assumePresent();
    }

    @ParameterizedTest
    @CsvSource({"60, 8, 4, 6", "120, 4099, 5, 12", "40, 1048576, 3, 8"})
    void cudaResults_equalCpuResults(int items, int itemBytes, int deviceSlots, int hostSlots) throws Exception {
        SyntheticApp app = new SyntheticApp(new SyntheticApp.Config(items, itemBytes, Cost.ZERO,
                Cost.parse("0.01"), Cost.parse("0.002"), 17));
        RocketOptions options = RocketOptions.defaults()
                .withCaches(new CacheSize(-1, hostSlots), new CacheSize(-1, deviceSlots))
                .withConcurrentJobs(8);
        Map<Long, Long> cpu = run(app, options.withDevice(DeviceSpec.parse("cpu")));
        Map<Long, Long> cuda = run(app, options.withDevice(DeviceSpec.parse("cuda")));
        assertThat(cuda).hasSize(items * (items - 1) / 2).isEqualTo(cpu);
        for (Map.Entry<Long, Long> e : cuda.entrySet()) {
            int i = (int) (e.getKey() >> 32);
            int j = (int) (long) e.getKey();
            assertThat(e.getValue()).isEqualTo(SyntheticApp.expected(17, i, j));
        }
    }

    private static Map<Long, Long> run(SyntheticApp app, RocketOptions options) throws Exception {
        Map<Long, Long> results = new ConcurrentHashMap<>();
        RunSummary summary = Rocket.run(app, app.keys(), options, new ResultSink<>() {
            @Override
            public void accept(int i, int j, Integer left, Integer right, Long result) {
                results.put(((long) i << 32) | j, result);
            }

            @Override
            public void failed(int i, int j, Integer left, Integer right, Throwable error) {
                throw new AssertionError("pair (" + i + ", " + j + ") failed: " + error.getMessage(), error);
            }
        });
        assertThat(summary.errors).isZero();
        return results;
    }
}
