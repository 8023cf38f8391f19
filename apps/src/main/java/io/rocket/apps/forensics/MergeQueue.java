package io.rocket.apps.forensics;

/**
 * The candidate merges of {@link SparseAverageLinkage}, best first: a binary max-heap in flat arrays of (average, a,
 * b, version of a, version of b). An entry goes stale when either cluster merges again; the caller skips stale
 * entries as they come out (lazy invalidation) and empties the queue with {@link #clear} to rebuild it when stale
 * entries pile up. Equal averages come out smaller (a, b) first, so the merge order does not depend on the order
 * the kept pairs arrived in.
 */
final class MergeQueue {

    private double[] average = new double[16];
    private int[] a = new int[16];
    private int[] b = new int[16];
    private int[] versionA = new int[16];
    private int[] versionB = new int[16];
    private int size;

    /** The number of entries, stale ones included. */
    int size() {
        return size;
    }

    /** Removes every entry. */
    void clear() {
        size = 0;
    }

    /** Adds the candidate merge of clusters {@code a < b} at their current versions. */
    void push(double avg, int first, int second, int firstVersion, int secondVersion) {
        if (size == average.length) {
            grow();
        }
        int at = size++;
        set(at, avg, first, second, firstVersion, secondVersion);
        siftUp(at);
    }

    /** The best entry's average; the queue must not be empty. */
    double topAverage() {
        return average[0];
    }

    /** The best entry's first cluster. */
    int topA() {
        return a[0];
    }

    /** The best entry's second cluster. */
    int topB() {
        return b[0];
    }

    /** The version of the first cluster when the best entry was pushed. */
    int topVersionA() {
        return versionA[0];
    }

    /** The version of the second cluster when the best entry was pushed. */
    int topVersionB() {
        return versionB[0];
    }

    /** Removes the best entry. */
    void pop() {
        size--;
        if (size > 0) {
            set(0, average[size], a[size], b[size], versionA[size], versionB[size]);
            siftDown(0);
        }
    }

    private boolean better(int x, int y) {
        if (average[x] != average[y]) {
            return average[x] > average[y];
        }
        return a[x] != a[y] ? a[x] < a[y] : b[x] < b[y];
    }

    private void siftUp(int at) {
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (!better(at, parent)) {
                return;
            }
            swap(at, parent);
            at = parent;
        }
    }

    private void siftDown(int at) {
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                return;
            }
            if (child + 1 < size && better(child + 1, child)) {
                child++;
            }
            if (!better(child, at)) {
                return;
            }
            swap(at, child);
            at = child;
        }
    }

    private void set(int at, double avg, int first, int second, int firstVersion, int secondVersion) {
        average[at] = avg;
        a[at] = first;
        b[at] = second;
        versionA[at] = firstVersion;
        versionB[at] = secondVersion;
    }

    private void swap(int x, int y) {
        double avg = average[x];
        int first = a[x];
        int second = b[x];
        int fv = versionA[x];
        int sv = versionB[x];
        set(x, average[y], a[y], b[y], versionA[y], versionB[y]);
        set(y, avg, first, second, fv, sv);
    }

    private void grow() {
        int capacity = average.length * 2;
        average = java.util.Arrays.copyOf(average, capacity);
        a = java.util.Arrays.copyOf(a, capacity);
        b = java.util.Arrays.copyOf(b, capacity);
        versionA = java.util.Arrays.copyOf(versionA, capacity);
        versionB = java.util.Arrays.copyOf(versionB, capacity);
    }
}
