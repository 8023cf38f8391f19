package io.rocket.runtime;

import io.rocket.core.CacheSize;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.summary.RunSummary;
import io.rocket.steal.PairSpace;
import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * cpu devices read the host cache (L2) in place, pinning items there instead of copying them into caches of their
 * own: over random pair spaces, device counts, memory budgets down to a few items and items of mixed sizes, every
 * pair of the space is computed once with its exact value (the cpu compare checks each item's length and both of its
 * ends while it reads it, so an item evicted or overwritten under a compare fails the run), nothing is copied into a
 * device cache, and the node's item memory stays within the budget given.
 */
class InPlaceReadsTest {
    private static final long SEED = 23;
    private static final int MAX = 2048;

    private static PairSpace space(int n, long seed, int kind) {
        if (kind == 0) {
            return PairSpace.triangle(n);
        }
        Random random = new Random(seed);
        int queryEnd = 1 + random.nextInt(n - 1);
        PairSpace rectangle = PairSpace.rectangle(n, queryEnd, random.nextInt(queryEnd + 1));
        List<int[]> pairs = new ArrayList<>();
        for (int k = 0; k < 3 * n; k++) {
            int a = random.nextInt(n);
            pairs.add(new int[] {a, (a + 1 + random.nextInt(n - 1)) % n});
        }
        PairSpace listed = PairSpace.listed(n, pairs);
        return switch (kind) {
            case 1 -> rectangle;
            case 2 -> listed;
            default -> PairSpace.union(List.of(rectangle, listed));
        };
    }

    @Property(tries = 30)
    void anySpaceDevicesAndBudget_everyPairOnceExact_nothingCopied_withinTheBudget(
            @ForAll @IntRange(min = 2, max = 150) int n,
            @ForAll long seed,
            @ForAll @IntRange(min = 0, max = 3) int kind,
            @ForAll @IntRange(min = 1, max = 3) int devices,
            @ForAll @IntRange(min = 2, max = 40) int budgetItems,
            @ForAll @IntRange(min = 1, max = 3) int hostThreads) throws Throwable {
        SyntheticApp app = new SyntheticApp(new SyntheticApp.Config(n, MAX, Cost.ZERO, Cost.ZERO, Cost.ZERO, SEED),
                true);
        PairSpace space = space(n, seed, kind);
        // The budget covers the staging buffers of parsed items (4 + the CPU-pool threads) and budgetItems items.
        long budget = (long) (budgetItems + 4 + hostThreads) * MAX;
        RocketOptions options = RocketOptions.defaults()
                .withDevice(DeviceSpec.parse("cpu:" + devices))
                .withCaches(new CacheSize(budget, -1), null)
                .withThreads(hostThreads, 1);
        SpaceCheck check = new SpaceCheck(SEED, space);
        AtomicReference<RunSummary> summary = new AtomicReference<>();
        RuntimePropertiesTest.assertTimeout(() -> summary.set(Rocket.run(app, app.keys(), space, options, check)));
        RunSummary s = summary.get();
        assertThat(check.problem()).isNull();
        assertThat(s.pairs).isEqualTo(space.pairs());
        assertThat(s.errors).isZero();
        assertThat(s.cache.get("device").misses()).as("copies into device caches").isZero();
        assertThat(s.memory.get("devices_reading_in_place")).isEqualTo((long) devices);
        assertThat(s.memory.get("host_cache_bytes") + s.memory.get("host_staging_bytes"))
                .as("item memory within the budget").isLessThanOrEqualTo(budget);
        assertThat(s.reuseL1).as("no R_L1 without device caches").isNull();
    }
}
