package io.rocket.runtime;

import io.rocket.core.CacheSize;
import io.rocket.core.DeviceKind;
import io.rocket.core.ResultSink;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.summary.RunSummary;
import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.testkit.SyntheticCheck;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.BitSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A leaf's rows packed into tiles on a cpu device: with an L1 that holds a whole leaf (one task per
 * leaf, rows sharing their column entries), one that holds a few rows, and one so small that rows are split into
 * pieces, every pair arrives exactly once with its exact value, in both orientations for an ordered application.
 */
class LeafTilesRunTest {
    private static final long SEED = 33;
    private static final int N = 90;

    private static RocketOptions options(int tile, int deviceSlots, int devices) {
        return RocketOptions.defaults().withThreads(2, 1).withTileSize(tile)
                .withCaches(new CacheSize(-1, N), new CacheSize(-1, deviceSlots))
                .withDevice(new DeviceSpec(DeviceKind.CPU, devices, List.of()));
    }

    private static SyntheticApp app() {
        return new SyntheticApp(new SyntheticApp.Config(N, 64, Cost.ZERO, Cost.ZERO, Cost.ZERO, SEED));
    }

    @ParameterizedTest(name = "tile {0}, L1 {1} slots, {2} device(s)")
    @CsvSource({"16, 200, 1", "16, 40, 1", "16, 12, 2", "8, 6, 1", "7, 90, 2"})
    @Timeout(60)
    void triangle_everyPairOnceWithItsValue(int tile, int deviceSlots, int devices) throws Exception {
        SyntheticApp app = app();
        SyntheticCheck check = new SyntheticCheck(SEED, N, true);
        RunSummary summary = Rocket.run(app, app.keys(), options(tile, deviceSlots, devices), check);
        assertThat(check.problem()).isNull();
        assertThat(summary.errors).isZero();
    }

    @ParameterizedTest(name = "ordered, tile {0}, L1 {1} slots")
    @CsvSource({"16, 200", "16, 12", "5, 90"})
    @Timeout(60)
    void ordered_bothOrientationsOnceWithTheirValues(int tile, int deviceSlots) throws Exception {
        OrderedSynthetic app = new OrderedSynthetic(app());
        OrientedCheck check = new OrientedCheck();
        Rocket.run(app, app().keys(), options(tile, deviceSlots, 1), check);
        assertThat(check.problem()).isNull();
    }

    /** Every ordered pair (i, j), i != j, exactly once with {@link OrderedSynthetic#expected}. */
    private static final class OrientedCheck implements ResultSink<Integer, Long> {
        private final BitSet seen = new BitSet(N * N);
        private long duplicates;
        private long wrong;

        @Override
        public synchronized void accept(int i, int j, Integer left, Integer right, Long result) {
            if (seen.get(i * N + j)) {
                duplicates++;
            }
            seen.set(i * N + j);
            if (i == j || result != OrderedSynthetic.expected(SEED, i, j)) {
                wrong++;
            }
        }

        @Override
        public synchronized void failed(int i, int j, Integer left, Integer right, Throwable error) {
            wrong++;
        }

        synchronized String problem() {
            long expected = (long) N * (N - 1);
            return seen.cardinality() == expected && duplicates == 0 && wrong == 0 ? null
                    : seen.cardinality() + " of " + expected + " ordered pairs, " + duplicates + " duplicates, "
                    + wrong + " wrong";
        }
    }
}
