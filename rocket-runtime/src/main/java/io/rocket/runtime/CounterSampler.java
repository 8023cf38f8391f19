package io.rocket.runtime;

import io.rocket.cluster.l3.L3Stats;
import io.rocket.node.NodePipeline;
import io.rocket.core.summary.CacheStats;
import io.rocket.core.trace.TraceCounter;
import io.rocket.core.trace.Tracer;

import java.util.Map;

/**
 * The node's one sampler thread. While tracing, it samples the cache counters into the trace every few milliseconds,
 * so the timeline shows hits and misses per level over time without a counter event per request: L1 and L2 on every
 * run, and on cluster nodes the L3 requests, hits and misses; and the megabytes read from input files per scheme,
 * whose slope is each storage's throughput. When the run shows its status (an endpoint, an event log), it also ticks
 * the status about once a second ({@link #STATUS_PERIOD_MILLIS}); without a trace it then wakes only for that.
 */
final class CounterSampler implements AutoCloseable {
    private static final long PERIOD_MILLIS = 10;
    /** How often the status is sampled: often enough for a person watching, rare enough to cost nothing. */
    static final long STATUS_PERIOD_MILLIS = 1000;
    private static final String[] SERIES = TraceCounter.L1_DEVICE_CACHE.series().toArray(new String[0]);
    private static final String[] L3_SERIES = TraceCounter.L3_DISTRIBUTED_CACHE.series().toArray(new String[0]);

    private final Thread thread;
    private final NodePipeline<?, ?> pipeline;
    private final Tracer tracer;
    private final L3Stats l3;
    private final Runnable status;
    private volatile boolean running = true;

    /**
     * @param tracer the trace to sample the counters into, or null when not tracing
     * @param l3     the distributed cache's counters, or null on a single node or without it
     * @param status the status tick, or null when the run shows no status
     */
    public CounterSampler(NodePipeline<?, ?> pipeline, Tracer tracer, L3Stats l3, Runnable status) {
        this.pipeline = pipeline;
        this.tracer = tracer;
        this.l3 = l3;
        this.status = status;
        long period = tracer != null ? PERIOD_MILLIS : STATUS_PERIOD_MILLIS;
        thread = new Thread(() -> {
            long nextStatus = System.nanoTime();
            while (running) {
                if (tracer != null) {
                    sampleAll();
                }
                if (status != null && System.nanoTime() - nextStatus >= 0) {
                    status.run();
                    nextStatus = System.nanoTime() + STATUS_PERIOD_MILLIS * 1_000_000;
                }
                try {
                    Thread.sleep(period);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "rocket-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void sampleAll() {
        sample(tracer, TraceCounter.L1_DEVICE_CACHE.trackName(), pipeline.deviceCacheStats());
        sample(tracer, TraceCounter.L2_HOST_CACHE.trackName(), pipeline.hostCacheStats());
        Map<String, Long> bytes = pipeline.inputBytes();
        if (!bytes.isEmpty()) {
            String[] schemes = bytes.keySet().toArray(new String[0]);
            long[] megabytes = bytes.values().stream().mapToLong(b -> b / 1_000_000).toArray();
            tracer.counter(TraceCounter.INPUT_MB_READ.trackName(), schemes, megabytes);
        }
        if (l3 != null) {
            tracer.counter(TraceCounter.L3_DISTRIBUTED_CACHE.trackName(), L3_SERIES,
                    new long[]{l3.requests(), l3.hits(), l3.misses()});
        }
    }

    private static void sample(Tracer tracer, String name, CacheStats s) {
        tracer.counter(name, SERIES, new long[]{s.hits(), s.misses(), s.evictions()});
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (tracer != null) {
            sampleAll(); // so the counters end at their totals
        }
    }
}
