package io.rocket.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Busy time per resource kind of every node, as the paper's per-thread processing-time bars (its Fig. 8): how long
 * the node's threads of each kind were running tasks, with the kernel time split into compare and preprocess, set
 * against the wall time and against T_min / p, the ideal time per device.
 *
 * <p>A thread's busy time is the union of its tasks' intervals; the parts per task name are scaled to add up to
 * it (they differ only where tasks overlap on one thread, as concurrent remote fetches do).
 *
 * @param wallSeconds wall time (summary, else the traces' span)
 * @param tMinSeconds T_min, or null when unknown
 * @param devices     p, the number of devices T_min is shared by, or null
 */
public record BusyTimes(double wallSeconds, Double tMinSeconds, Integer devices, List<NodeBusy> nodes) {

    /** Order of task names in a stack, bottom first: compare under preprocess as in the paper. */
    static final List<String> PART_ORDER = List.of("compare", "preprocess", "read", "parse", "postprocess", "h2d",
            "d2h item", "d2h result", "remote fetch");

    /** The kinds drawn, in order. */
    static final List<ResourceKind> KINDS = List.of(ResourceKind.IO, ResourceKind.CPU, ResourceKind.H2D,
            ResourceKind.D2H, ResourceKind.KERNEL, ResourceKind.NET, ResourceKind.OTHER);

    /** One node's bars. */
    public record NodeBusy(String label, int rank, List<KindBusy> kinds) {
    }

    /**
     * One kind on one node.
     *
     * @param busySeconds      summed over the kind's threads
     * @param perThreadSeconds busySeconds / threads: what the bar shows
     */
    public record KindBusy(String kind, String label, int threads, double busySeconds, double perThreadSeconds,
                           List<Part> parts) {
    }

    /** Busy seconds of one task name within a kind (summed over its threads). */
    public record Part(String name, String category, double seconds) {
    }

    public static BusyTimes of(RunTraces traces, Headline headline) {
        EventNames names = traces.names();
        List<NodeBusy> nodes = new ArrayList<>();
        for (NodeTrace node : traces.nodes()) {
            List<KindBusy> kinds = new ArrayList<>();
            for (ResourceKind kind : KINDS) {
                int threads = 0;
                double busy = 0;
                double[] parts = new double[names.size()];
                for (ThreadTrack t : node.threads()) {
                    if (t.kind() != kind) {
                        continue;
                    }
                    threads++;
                    double threadBusy = t.busyMicros();
                    busy += threadBusy;
                    double[] raw = t.microsByName(names.size());
                    double sum = 0;
                    for (double v : raw) {
                        sum += v;
                    }
                    double scale = sum > 0 ? threadBusy / sum : 0;
                    for (int k = 0; k < raw.length; k++) {
                        parts[k] += raw[k] * scale;
                    }
                }
                if (threads == 0 || (kind == ResourceKind.OTHER && busy == 0)) {
                    continue;
                }
                List<Part> list = new ArrayList<>();
                for (int k = 0; k < parts.length; k++) {
                    if (parts[k] > 0) {
                        list.add(new Part(names.name(k), names.category(k), parts[k] / 1e6));
                    }
                }
                list.sort(Comparator.comparingInt((Part p) -> order(p.name())).thenComparing(Part::name));
                kinds.add(new KindBusy(kind.id(), kind.label(), threads, busy / 1e6, busy / 1e6 / threads,
                        List.copyOf(list)));
            }
            nodes.add(new NodeBusy(traces.label(node), node.pid(), List.copyOf(kinds)));
        }
        double wall = headline.wallSeconds() != null ? headline.wallSeconds() : traces.spanSeconds();
        return new BusyTimes(wall, headline.tMinSeconds(), headline.devices(), List.copyOf(nodes));
    }

    private static int order(String name) {
        int k = PART_ORDER.indexOf(name);
        return k < 0 ? PART_ORDER.size() : k;
    }
}
