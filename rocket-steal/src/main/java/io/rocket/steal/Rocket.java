package io.rocket.steal;

import io.rocket.cache.pipeline.NodePipeline;
import io.rocket.cache.pipeline.PipelineConfig;
import io.rocket.core.Application;
import io.rocket.core.CacheSize;
import io.rocket.core.ItemException;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.core.device.Device;
import io.rocket.core.device.Devices;
import io.rocket.core.exec.ResourceExecutor;
import io.rocket.core.summary.PerformanceModel;
import io.rocket.core.summary.RunSummary;
import io.rocket.core.trace.ChromeTracer;
import io.rocket.core.trace.Telemetry;
import io.rocket.core.trace.TraceEvent;
import io.rocket.core.trace.Tracer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The entry point: runs an {@link Application} over every pair of its keys on this node's devices and returns the
 * run's {@link RunSummary}. Wires the devices, the L1/L2 caches and pipeline, the work-stealing scheduler, the
 * result sink and the tracer, and releases all of them when the run ends.
 */
public final class Rocket {
    private static final Logger LOG = LoggerFactory.getLogger(Rocket.class);

    private Rocket() {
    }

    /**
     * Computes every pair {@code i < j} of {@code keys}, streaming results to {@code sink}.
     *
     * @throws RocketException for unusable options or devices (its message is meant for the user)
     */
    public static <K, R> RunSummary run(Application<K, R> app, List<K> keys, RocketOptions options,
                                        ResultSink<K, R> sink) throws InterruptedException {
        validate(app, options);
        int n = keys.size();
        Devices.Opened opened = Devices.open(options.device());
        List<Device> devices = opened.devices();
        ChromeTracer chrome = options.trace() == null ? null : new ChromeTracer(0, "rocket " + app.name());
        Tracer tracer = chrome == null ? Tracer.NOOP : chrome;
        Telemetry telemetry = new Telemetry(tracer);
        PipelineConfig config = resolve(app, n, options, devices.get(0));
        long totalPairs = PerformanceModel.pairs(n);
        NodePipeline<K, R>[] pipeline = newHolder();
        WorkScheduler scheduler = new WorkScheduler(devices.size(), options.tileSize(), totalPairs,
                (device, i, j) -> pipeline[0].submit(device, i, j));
        long start = System.nanoTime();
        try (AutoCloseable closeDevices = () -> closeAll(devices, opened)) {
            pipeline[0] = new NodePipeline<>(app, keys, devices, opened.hostMemory(), config, sink, telemetry,
                    (device, i, j, ok) -> scheduler.pairDone());
            CounterSampler sampler = chrome == null ? null : new CounterSampler(pipeline[0], tracer);
            try {
                scheduler.start(Region.root(n), tracer);
                scheduler.await();
            } finally {
                scheduler.close();
                pipeline[0].close();
                if (sampler != null) {
                    sampler.close();
                }
            }
            pipeline[0].checkQuiescent();
            double wall = (System.nanoTime() - start) / 1e9;
            RunSummary summary = summarize(app, n, devices, pipeline[0], telemetry, wall);
            if (chrome != null) {
                chrome.write(options.trace());
            }
            return summary;
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (IOException e) {
            throw new RocketException("cannot write trace " + options.trace() + ": " + e.getMessage(), e);
        } catch (Exception e) {
            throw new RocketException("run failed: " + e, e);
        }
    }

    @SuppressWarnings("unchecked")
    private static <K, R> NodePipeline<K, R>[] newHolder() {
        return (NodePipeline<K, R>[]) new NodePipeline[1];
    }

    private static void closeAll(List<Device> devices, Devices.Opened opened) {
        for (Device device : devices) {
            device.close();
        }
        opened.hostMemory().close();
    }

    private static void validate(Application<?, ?> app, RocketOptions o) {
        if (app.maxItemBytes() <= 0 || app.maxInputBytes() < 0 || app.maxResultBytes() < 0 || app.maxFileBytes() < 0) {
            throw new RocketException(app.name() + ": item, input, file and result sizes must be positive");
        }
        if (app.maxItemBytes() > Integer.MAX_VALUE - 8 || app.maxFileBytes() > Integer.MAX_VALUE - 8) {
            throw new RocketException(app.name() + ": items and files are limited to 2 GiB each");
        }
        if (o.hostThreads() < 1 || o.ioThreads() < 1 || o.concurrentJobs() < 1 || o.tileSize() < 1) {
            throw new RocketException("host threads, I/O threads, concurrent jobs and tile size must be at least 1");
        }
    }

    /** Turns byte sizes into slot counts; a cache that cannot hold two items is a user error. */
    static PipelineConfig resolve(Application<?, ?> app, int n, RocketOptions o, Device device) {
        long slotBytes = app.maxItemBytes();
        int cap = Math.max(2, n);
        int hostSlots = slots("host cache (--host-cache-size)", o.hostCacheSize() == null
                ? RocketOptions.DEFAULT_HOST_CACHE : o.hostCacheSize(), slotBytes, cap, o.hostCacheSize() == null);
        int deviceSlots = slots("device cache (--device-cache-size)", o.deviceCacheSize() == null
                ? new CacheSize(device.defaultCacheBytes(), -1) : o.deviceCacheSize(), slotBytes, cap,
                o.deviceCacheSize() == null);
        int staging = Math.max(2, Math.min(4, o.concurrentJobs()));
        return new PipelineConfig(o.hostThreads(), o.ioThreads(), o.concurrentJobs(), hostSlots, deviceSlots, staging);
    }

    private static int slots(String what, CacheSize size, long slotBytes, int cap, boolean isDefault) {
        long slots = size.slots(slotBytes);
        if (slots < 2) {
            if (isDefault) {
                return 2;
            }
            throw new RocketException(what + " of " + size + " holds " + slots + " slot(s) of " + slotBytes
                    + " bytes (one item each); at least 2 are needed");
        }
        return (int) Math.min(slots, cap);
    }

    private static <K, R> RunSummary summarize(Application<K, R> app, int n, List<Device> devices,
                                               NodePipeline<K, R> pipeline, Telemetry t, double wall) {
        RunSummary s = new RunSummary();
        s.app = app.name();
        s.items = n;
        s.errors = pipeline.pairErrors();
        s.pairs = PerformanceModel.pairs(n) - s.errors;
        s.wallSeconds = wall;
        s.pairsPerSecond = wall > 0 ? s.pairs / wall : 0;
        s.loads = pipeline.loads();
        s.reuse = PerformanceModel.reuseFactor(s.loads, n);
        double tPre = t.meanSeconds(TraceEvent.PREPROCESS);
        double tCmp = t.meanSeconds(TraceEvent.COMPARE);
        s.tMinSeconds = PerformanceModel.tMinSeconds(n, tPre, tCmp);
        s.systemEfficiency = PerformanceModel.systemEfficiency(s.tMinSeconds, devices.size(), wall);
        s.devices = devices.stream().map(Device::info).toList();
        s.cache.put("device", pipeline.deviceCacheStats());
        s.cache.put("host", pipeline.hostCacheStats());
        for (TraceEvent e : TraceEvent.values()) {
            if (t.count(e) > 0) {
                s.stepSeconds.put(e.displayName().replace(' ', '_'), t.meanSeconds(e));
            }
        }
        Map<String, Double> busy = new LinkedHashMap<>();
        for (ResourceExecutor ex : pipeline.executors()) {
            busy.merge(ex.kind().id(), ex.busyNanos() / 1e9, Double::sum);
        }
        s.busySeconds = busy;
        s.deviceBusySeconds = pipeline.deviceBusySeconds();
        List<RunSummary.Failure> failures = new ArrayList<>();
        for (Map.Entry<Integer, ItemException> f : pipeline.failures().entrySet()) {
            failures.add(new RunSummary.Failure(f.getKey(), "", f.getValue().getMessage()));
        }
        s.failures = failures;
        LOG.debug("run done: {} pairs in {} s", s.pairs, wall);
        return s;
    }
}
