package io.rocket.apps.forensics;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import pl.edu.icm.jlargearrays.ConcurrencyUtils;

/**
 * Process-wide settings for JTransforms' internal parallelism, for the launcher to call once at start-up.
 *
 * <p>JTransforms splits large 2D transforms over a static thread pool (JLargeArrays' {@code ConcurrencyUtils}),
 * by default one thread per processor in a cached pool of non-daemon threads. Two consequences matter to Rocket:
 * when the runtime already runs one preprocess per core, the inner threads oversubscribe the CPU; and a JVM that
 * returns from {@code main} without {@code System.exit} lingers for the pool's 60-second keep-alive.
 * {@link #configure} sets the thread count and swaps in a pool of daemon threads. The compare step
 * ({@link RealInverseFft2}) uses 1D plans only and is always single-threaded.
 */
public final class FftThreading {

    private FftThreading() {
    }

    /**
     * Lets each 2D transform use up to {@code threads} threads (1 = run on the caller's thread), from a pool of
     * daemon threads.
     */
    public static synchronized void configure(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        ConcurrencyUtils.setNumberOfThreads(threads);
        ExecutorService pool = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "jtransforms-fft");
            thread.setDaemon(true);
            return thread;
        });
        ConcurrencyUtils.setThreadPool(pool);
    }

    /** The number of threads a 2D transform may use now. */
    public static int threads() {
        return ConcurrencyUtils.getNumberOfThreads();
    }
}
