package io.rocket.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One counter track of a node ({@code C} events of one name, such as {@code L1 device cache}): samples in time
 * order, each with a value per series ({@code hits}, {@code misses}, ...).
 */
public final class CounterTrack {
    private final String name;
    private final List<String> series = new ArrayList<>();
    private final List<Double> times = new ArrayList<>();
    private final List<double[]> values = new ArrayList<>();

    CounterTrack(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    /** Series names, in order of first appearance. */
    public List<String> series() {
        return series;
    }

    void add(double ts, String[] keys, double[] vals, int count) {
        double[] row = new double[Math.max(series.size(), 1)];
        Arrays.fill(row, Double.NaN);
        for (int k = 0; k < count; k++) {
            int s = series.indexOf(keys[k]);
            if (s < 0) {
                series.add(keys[k]);
                s = series.size() - 1;
            }
            if (s >= row.length) {
                int old = row.length;
                row = Arrays.copyOf(row, s + 1);
                Arrays.fill(row, old, s + 1, Double.NaN);
            }
            row[s] = vals[k];
        }
        times.add(ts);
        values.add(row);
    }

    /** Number of samples. */
    public int size() {
        return times.size();
    }

    /**
     * The value of {@code seriesName} in the latest sample that has it (counters are cumulative, so this is the
     * total), or 0 when no sample has it.
     */
    public double last(String seriesName) {
        int s = series.indexOf(seriesName);
        if (s < 0) {
            return 0;
        }
        double best = 0;
        double bestTime = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < times.size(); k++) {
            double[] row = values.get(k);
            if (s < row.length && !Double.isNaN(row[s]) && times.get(k) >= bestTime) {
                bestTime = times.get(k);
                best = row[s];
            }
        }
        return best;
    }
}
