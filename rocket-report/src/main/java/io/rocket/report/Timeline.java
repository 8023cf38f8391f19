package io.rocket.report;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.ArrayList;
import java.util.List;

/**
 * The timeline the page draws: one lane per node, one row per thread, boxes for tasks, in whole microseconds from
 * the run's first task. Row arrays are columnar: {@code s} the start of each box as the difference to the previous
 * box's start, {@code d} its length, {@code k} its task name (index into {@code names}).
 *
 * <p>Thinning: when the run has more tasks than {@code maxBoxes}, tasks of one thread that are less than a quantum
 * q apart are merged into one box (spanning at most 8 q) until the boxes fit; a merged box takes the name of the
 * task that filled most of it and has {@code n} (tasks merged) and {@code b} (microseconds busy) set. q is the
 * smallest that fits, found by bisection; below it the page shows merged boxes when zoomed in. All other figures
 * of the report are computed from every task, before thinning.
 *
 * @param quantumMicros q, 0 when nothing was merged
 * @param tasks         tasks in the traces
 * @param boxes         boxes in the timeline
 */
public record Timeline(double startMicros, double spanMicros, double quantumMicros, long tasks, long boxes,
                       List<Name> names, List<Lane> lanes) {

    /** How many q a merged box may span. */
    static final double MAX_SPAN_QUANTA = 8;

    /** A task name and its category, which picks its colour. */
    public record Name(String name, String category) {
    }

    /** One node. */
    public record Lane(String label, int rank, String file, List<Row> threads) {
    }

    /** One thread's boxes; {@code n} and {@code b} only when some boxes are merged. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Row(String name, String kind, long tasks, double busySeconds, long[] s, long[] d, int[] k, int[] n,
                      long[] b) {
    }

    public static Timeline of(RunTraces traces, long maxBoxes) {
        long tasks = traces.taskCount();
        double q = 0;
        if (tasks > maxBoxes) {
            double lo = 0;
            double hi = Math.max(1, traces.endMicros() - traces.startMicros());
            while (boxes(traces, hi) > maxBoxes) {
                hi *= 2; // only when even one box per stretch of the whole span is too many (many threads)
                if (hi > 1e18) {
                    break;
                }
            }
            for (int iter = 0; iter < 48 && hi - lo > Math.max(1e-3, hi * 1e-4); iter++) {
                double mid = (lo + hi) / 2;
                if (boxes(traces, mid) > maxBoxes) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            q = hi;
        }
        EventNames names = traces.names();
        List<Name> nameList = new ArrayList<>();
        for (int k = 0; k < names.size(); k++) {
            nameList.add(new Name(names.name(k), names.category(k)));
        }
        double origin = traces.startMicros();
        long total = 0;
        List<Lane> lanes = new ArrayList<>();
        for (NodeTrace node : traces.nodes()) {
            List<Row> rows = new ArrayList<>();
            for (ThreadTrack t : node.threads()) {
                Row row = row(t, origin, q, names.size());
                total += row.s().length;
                rows.add(row);
            }
            lanes.add(new Lane(traces.label(node), node.pid(), node.file().getFileName().toString(),
                    List.copyOf(rows)));
        }
        return new Timeline(origin, traces.endMicros() - origin, q, tasks, total, List.copyOf(nameList),
                List.copyOf(lanes));
    }

    /** Boxes that quantum {@code q} leaves. */
    static long boxes(RunTraces traces, double q) {
        long n = 0;
        for (NodeTrace node : traces.nodes()) {
            for (ThreadTrack t : node.threads()) {
                double groupStart = 0;
                double groupEnd = 0;
                for (int k = 0; k < t.size(); k++) {
                    if (k == 0 || !joins(t, k, groupStart, groupEnd, q)) {
                        n++;
                        groupStart = t.start(k);
                        groupEnd = t.end(k);
                    } else {
                        groupEnd = Math.max(groupEnd, t.end(k));
                    }
                }
            }
        }
        return n;
    }

    private static boolean joins(ThreadTrack t, int k, double groupStart, double groupEnd, double q) {
        return q > 0 && t.start(k) - groupEnd <= q && t.end(k) - groupStart <= MAX_SPAN_QUANTA * q;
    }

    private static Row row(ThreadTrack t, double origin, double q, int nameCount) {
        LongList s = new LongList();
        LongList d = new LongList();
        LongList kk = new LongList();
        LongList n = new LongList();
        LongList b = new LongList();
        boolean merged = false;
        double[] byName = new double[nameCount];
        int[] touched = new int[nameCount];
        int touchedCount = 0;
        long previousStart = 0;
        int k = 0;
        while (k < t.size()) {
            double groupStart = t.start(k);
            double groupEnd = t.end(k);
            double busy = 0;
            int count = 0;
            int j = k;
            do {
                int id = t.nameId(j);
                if (byName[id] == 0) {
                    touched[touchedCount++] = id;
                }
                byName[id] += Math.max(t.duration(j), 1e-9);
                busy += t.duration(j);
                groupEnd = Math.max(groupEnd, t.end(j));
                count++;
                j++;
            } while (j < t.size() && joins(t, j, groupStart, groupEnd, q));
            int best = touched[0];
            for (int x = 0; x < touchedCount; x++) {
                if (byName[touched[x]] > byName[best]) {
                    best = touched[x];
                }
                byName[touched[x]] = 0;
            }
            touchedCount = 0;
            long start = Math.round(groupStart - origin);
            long end = Math.max(start, Math.round(groupEnd - origin));
            s.add(start - previousStart);
            previousStart = start;
            d.add(end - start);
            kk.add(best);
            n.add(count);
            b.add(Math.min(end - start, Math.round(busy)));
            merged |= count > 1;
            k = j;
        }
        return new Row(t.name(), t.kind().id(), t.size(), t.busyMicros() / 1e6, s.toArray(), d.toArray(),
                kk.toIntArray(), merged ? n.toIntArray() : null, merged ? b.toArray() : null);
    }

    /** A growable long array. */
    private static final class LongList {
        long[] v = new long[16];
        int size;

        void add(long x) {
            if (size == v.length) {
                v = java.util.Arrays.copyOf(v, size * 2);
            }
            v[size++] = x;
        }

        long[] toArray() {
            return java.util.Arrays.copyOf(v, size);
        }

        int[] toIntArray() {
            int[] out = new int[size];
            for (int k = 0; k < size; k++) {
                out[k] = (int) v[k];
            }
            return out;
        }
    }
}
