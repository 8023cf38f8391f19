package io.rocket.runtime;

import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.testkit.SyntheticCheck;
import io.rocket.core.CacheSize;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.summary.RunSummary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * The runtime's central promise, over random shapes: for any item count, tile size, device count, cache sizes
 * (down to 2 slots per level) and job limit, every pair i &lt; j is produced exactly once with the right value,
 * and the run ends (each try has a time limit, so a hang fails instead of blocking the build).
 */
class RuntimePropertiesTest {

    @Property(tries = 60)
    void everyPairOnceWithTheRightValue(@ForAll @IntRange(min = 0, max = 300) int n,
                                        @ForAll @IntRange(min = 1, max = 40) int tile,
                                        @ForAll @IntRange(min = 1, max = 3) int devices,
                                        @ForAll @IntRange(min = 2, max = 40) int deviceSlots,
                                        @ForAll @IntRange(min = 2, max = 60) int hostSlots,
                                        @ForAll @IntRange(min = 1, max = 24) int jobs,
                                        @ForAll @IntRange(min = 1, max = 3) int hostThreads,
                                        @ForAll long seed) {
        SyntheticApp app = new SyntheticApp(new SyntheticApp.Config(n, 64, Cost.ZERO, Cost.ZERO, Cost.ZERO, seed));
        RocketOptions options = RocketOptions.defaults()
                .withDevice(DeviceSpec.parse("cpu:" + devices))
                .withCaches(new CacheSize(-1, hostSlots), new CacheSize(-1, deviceSlots))
                .withThreads(hostThreads, 1)
                .withConcurrentJobs(jobs)
                .withTileSize(tile);
        SyntheticCheck check = new SyntheticCheck(seed, n, true);
        AtomicReference<RunSummary> summary = new AtomicReference<>();
        assertThatCode(() -> assertTimeout(() -> summary.set(Rocket.run(app, app.keys(), options, check))))
                .doesNotThrowAnyException();
        assertThat(check.problem()).isNull();
        assertThat(summary.get().pairs).isEqualTo((long) n * (n - 1) / 2);
        assertThat(summary.get().errors).isZero();
        assertThat(summary.get().loads).isGreaterThanOrEqualTo(n < 2 ? 0 : n);
    }

    /** Runs with a deadline; a hang becomes a failure with a thread dump instead of a stuck build. */
    static void assertTimeout(ThrowingRunnable body) throws Throwable {
        AtomicReference<Throwable> error = new AtomicReference<>();
        Thread runner = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                error.set(t);
            }
        }, "property-run");
        runner.setDaemon(true);
        runner.start();
        runner.join(Duration.ofSeconds(60).toMillis());
        if (runner.isAlive()) {
            StringBuilder dump = new StringBuilder("run did not finish in 60 s:\n");
            Thread.getAllStackTraces().forEach((t, stack) -> {
                if (t.getName().startsWith("rocket") || t == runner) {
                    dump.append(t.getName()).append('\n');
                    for (StackTraceElement e : stack) {
                        dump.append("    at ").append(e).append('\n');
                    }
                }
            });
            throw new AssertionError(dump.toString());
        }
        if (error.get() != null) {
            throw error.get();
        }
    }

    /** A body that may throw. */
    interface ThrowingRunnable {
        void run() throws Throwable;
    }
}
