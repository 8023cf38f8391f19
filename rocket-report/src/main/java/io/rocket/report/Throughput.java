package io.rocket.report;

import java.util.ArrayList;
import java.util.List;

/**
 * Pairs computed per device over time, as the paper's throughput plot (its Fig. 14): the compare tasks of each
 * device's kernel thread counted in equal time bins by the time they ended. The page divides by the bin width
 * (and may average a few bins, as the paper's rolling average does).
 *
 * @param binSeconds width of a bin
 * @param devices    one series per device: compare tasks ending in each bin
 */
public record Throughput(double binSeconds, int bins, List<DeviceSeries> devices) {

    /** One device's series. */
    public record DeviceSeries(String label, String node, int rank, long pairs, int[] counts) {
    }

    /** @param bins number of time bins over the run (at least 1) */
    public static Throughput of(RunTraces traces, int bins) {
        int compare = traces.names().find("compare");
        double start = traces.startMicros();
        double span = Math.max(traces.endMicros() - start, 1e-3);
        double width = span / bins;
        boolean multiNode = traces.nodes().size() > 1;
        List<DeviceSeries> list = new ArrayList<>();
        for (NodeTrace node : traces.nodes()) {
            for (ThreadTrack t : node.threads()) {
                if (t.kind() != ResourceKind.KERNEL && !hasTask(t, compare)) {
                    continue;
                }
                int[] counts = new int[bins];
                long pairs = 0;
                for (int k = 0; k < t.size(); k++) {
                    if (t.nameId(k) == compare) {
                        int bin = (int) Math.min(bins - 1, Math.max(0, Math.floor((t.end(k) - start) / width)));
                        counts[bin]++;
                        pairs++;
                    }
                }
                if (pairs == 0) {
                    continue;
                }
                String device = t.name().endsWith(" kernel")
                        ? t.name().substring(0, t.name().length() - " kernel".length()) : t.name();
                String label = multiNode ? "rank " + node.pid() + " · " + device : device;
                list.add(new DeviceSeries(label, traces.label(node), node.pid(), pairs, counts));
            }
        }
        return new Throughput(width / 1e6, bins, List.copyOf(list));
    }

    private static boolean hasTask(ThreadTrack t, int nameId) {
        if (nameId < 0) {
            return false;
        }
        for (int k = 0; k < t.size(); k++) {
            if (t.nameId(k) == nameId) {
                return true;
            }
        }
        return false;
    }
}
