package io.rocket.steal;

import io.rocket.cache.pipeline.NodePipeline;
import io.rocket.core.summary.CacheStats;
import io.rocket.core.trace.Tracer;

/**
 * Samples the cache counters into the trace every few milliseconds while tracing, so the timeline shows hits and
 * misses per level over time without a counter event per request.
 */
final class CounterSampler implements AutoCloseable {
    private static final long PERIOD_MILLIS = 10;
    private static final String[] SERIES = {"hits", "misses", "evictions"};

    private final Thread thread;
    private final NodePipeline<?, ?> pipeline;
    private final Tracer tracer;
    private volatile boolean running = true;

    CounterSampler(NodePipeline<?, ?> pipeline, Tracer tracer) {
        this.pipeline = pipeline;
        this.tracer = tracer;
        thread = new Thread(() -> {
            while (running) {
                sampleAll();
                try {
                    Thread.sleep(PERIOD_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "rocket-trace-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void sampleAll() {
        sample(tracer, "L1 device cache", pipeline.deviceCacheStats());
        sample(tracer, "L2 host cache", pipeline.hostCacheStats());
    }

    private static void sample(Tracer tracer, String name, CacheStats s) {
        tracer.counter(name, SERIES, new long[]{s.hits(), s.misses(), s.evictions()});
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join();
        sampleAll(); // so the counters end at their totals
    }
}
