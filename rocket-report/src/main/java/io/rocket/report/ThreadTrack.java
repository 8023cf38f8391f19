package io.rocket.report;

import java.util.Arrays;

/**
 * The tasks of one traced thread: start and duration (microseconds on the trace clock) and the task's name number,
 * in growable primitive arrays, sorted by start once reading ends.
 */
public final class ThreadTrack {
    private final int tid;
    private String name;
    private int sortIndex;
    private ResourceKind kind = ResourceKind.OTHER;
    private int size;
    private double[] start = new double[64];
    private double[] duration = new double[64];
    private int[] names = new int[64];

    ThreadTrack(int tid) {
        this.tid = tid;
        this.name = "thread " + tid;
        this.sortIndex = tid;
    }

    public int tid() {
        return tid;
    }

    public String name() {
        return name;
    }

    void name(String name) {
        this.name = name;
    }

    public int sortIndex() {
        return sortIndex;
    }

    void sortIndex(int sortIndex) {
        this.sortIndex = sortIndex;
    }

    public ResourceKind kind() {
        return kind;
    }

    /** Number of tasks. */
    public int size() {
        return size;
    }

    public double start(int k) {
        return start[k];
    }

    public double duration(int k) {
        return duration[k];
    }

    public double end(int k) {
        return start[k] + duration[k];
    }

    /** The task's name number in the run's {@link EventNames}. */
    public int nameId(int k) {
        return names[k];
    }

    void add(double ts, double dur, int nameId) {
        if (size == start.length) {
            int n = size * 2;
            start = Arrays.copyOf(start, n);
            duration = Arrays.copyOf(duration, n);
            names = Arrays.copyOf(names, n);
        }
        start[size] = ts;
        duration[size] = Math.max(0, dur);
        names[size] = nameId;
        size++;
    }

    /** Sorts the tasks by start and settles the thread's kind (from its name, else its tasks' category). */
    void finish(EventNames eventNames) {
        boolean sorted = true;
        for (int k = 1; k < size && sorted; k++) {
            sorted = start[k - 1] <= start[k];
        }
        if (!sorted) {
            Integer[] order = new Integer[size];
            for (int k = 0; k < size; k++) {
                order[k] = k;
            }
            double[] s = start;
            Arrays.sort(order, (x, y) -> Double.compare(s[x], s[y]));
            double[] ns = new double[size];
            double[] nd = new double[size];
            int[] nn = new int[size];
            for (int k = 0; k < size; k++) {
                ns[k] = start[order[k]];
                nd[k] = duration[order[k]];
                nn[k] = names[order[k]];
            }
            start = ns;
            duration = nd;
            names = nn;
        }
        kind = ResourceKind.classify(name, dominantCategory(eventNames));
    }

    private String dominantCategory(EventNames eventNames) {
        if (size == 0) {
            return null;
        }
        int[] count = new int[eventNames.size()];
        int best = names[0];
        for (int k = 0; k < size; k++) {
            if (++count[names[k]] > count[best]) {
                best = names[k];
            }
        }
        return eventNames.category(best);
    }

    /**
     * Time the thread was busy, in microseconds: the union of its tasks' intervals (tasks that overlap on one
     * thread, such as concurrent remote fetches, count once).
     */
    public double busyMicros() {
        double busy = 0;
        double coveredTo = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < size; k++) {
            double s = Math.max(start[k], coveredTo);
            double e = end(k);
            if (e > s) {
                busy += e - s;
                coveredTo = e;
            }
        }
        return busy;
    }

    /** Sum of task durations per name number (overlaps counted each time). */
    public double[] microsByName(int nameCount) {
        double[] sum = new double[nameCount];
        for (int k = 0; k < size; k++) {
            sum[names[k]] += duration[k];
        }
        return sum;
    }

    /** Earliest start, or +infinity without tasks. */
    public double firstStart() {
        return size == 0 ? Double.POSITIVE_INFINITY : start[0];
    }

    /** Latest end, or -infinity without tasks. */
    public double lastEnd() {
        double last = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < size; k++) {
            last = Math.max(last, end(k));
        }
        return last;
    }
}
