package io.rocket.apps.bench;

import io.rocket.core.CacheSize;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.HostBuffer;
import io.rocket.core.RocketException;
import io.rocket.core.device.Device;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.device.Devices;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Measures the copy bandwidth between the node's host buffers and each device, through the same
 * {@link Device#copyToDevice}/{@link Device#copyToHost} calls the pipeline makes: on {@code cuda} that is pinned L2
 * memory to an L1-sized device block, i.e. what a host-cache hit costs. A benchmark, not a test: run it on an idle
 * machine, e.g. {@code rocket copy-bandwidth --device cuda --bytes 256M} ({@code scripts/gpu-check} does). A hidden
 * command of the launcher: it is not listed in the help or the reference.
 */
@Command(name = "copy-bandwidth", mixinStandardHelpOptions = true, hidden = true,
        description = "Host-to-device and device-to-host copy bandwidth from the node's (pinned) host memory.")
public final class CopyBandwidth implements Callable<Integer> {

    @Option(names = "--device", defaultValue = "cuda", description = "Devices (as for rocket). Default: ${DEFAULT-VALUE}.")
    String device;

    @Option(names = "--bytes", defaultValue = "256M", description = "Bytes per copy. Default: ${DEFAULT-VALUE}.")
    String bytes;

    @Option(names = "--repeats", defaultValue = "10", description = "Timed copies per direction. Default: ${DEFAULT-VALUE}.")
    int repeats;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** One device's figures; bandwidths in GB/s (10^9 bytes per second). */
    public record Result(String device, long bytes, int repeats, double toDeviceMean, double toDeviceBest,
                         double toHostMean, double toHostBest) {

        @Override
        public String toString() {
            return String.format("%s: %d MiB per copy, %d copies: host-to-device %.2f GB/s (best %.2f), "
                            + "device-to-host %.2f GB/s (best %.2f)", device, bytes >> 20, repeats, toDeviceMean,
                    toDeviceBest, toHostMean, toHostBest);
        }
    }

    /** Measures every device of {@code spec}: one untimed copy each way, then {@code repeats} timed ones. */
    public static List<Result> measure(DeviceSpec spec, long bytes, int repeats) {
        if (bytes < 1 || bytes > Integer.MAX_VALUE - 8 || repeats < 1) {
            throw new RocketException("copy size must be 1 byte .. 2 GiB and repeats at least 1");
        }
        Devices.Opened opened = Devices.open(spec);
        try {
            HostBuffer host = opened.hostMemory().allocate(bytes);
            for (int k = 0; k < bytes; k += 4096) {
                host.raw().put(k, (byte) k);
            }
            List<Result> results = new ArrayList<>();
            for (Device d : opened.devices()) {
                DeviceBuffer target = d.allocate(bytes);
                d.copyToDevice(host, target, bytes);
                d.copyToHost(target, host, bytes);
                double[] in = new double[repeats];
                double[] out = new double[repeats];
                for (int r = 0; r < repeats; r++) {
                    long t0 = System.nanoTime();
                    d.copyToDevice(host, target, bytes);
                    long t1 = System.nanoTime();
                    d.copyToHost(target, host, bytes);
                    long t2 = System.nanoTime();
                    in[r] = bytes / (double) (t1 - t0);
                    out[r] = bytes / (double) (t2 - t1);
                }
                results.add(new Result(d.name(), bytes, repeats, mean(in), max(in), mean(out), max(out)));
            }
            return results;
        } finally {
            opened.devices().forEach(Device::close);
            opened.hostMemory().close();
        }
    }

    private static double mean(double[] values) {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    private static double max(double[] values) {
        double best = 0;
        for (double v : values) {
            best = Math.max(best, v);
        }
        return best;
    }

    @Override
    public Integer call() {
        CacheSize size = CacheSize.parse(bytes);
        if (size.bytes() < 0) {
            throw new RocketException("--bytes takes a byte size such as 256M");
        }
        PrintWriter out = spec.commandLine().getOut();
        for (Result r : measure(DeviceSpec.parse(device), size.bytes(), repeats)) {
            out.println(r);
        }
        out.flush();
        return 0;
    }
}
