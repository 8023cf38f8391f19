package io.rocket.apps.microscopy;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Caps a particle at {@code maxPoints} localizations by density-weighted sampling without replacement: each
 * localization's weight is 1 + the number of other localizations within {@code radius} (nm) of it, so points on
 * densely labelled binding sites are kept in preference to isolated ones (background, stray blinks), and the
 * sample keeps the particle's structure at the registration scale. Sampling uses Efraimidis–Spirakis keys
 * u^(1/w), seeded from the particle's own contents, so a file always resamples to the same points (nodes of a
 * cluster that load the same item independently get identical slots). Particles at or under the cap are kept whole.
 * Runs at parse time, once per item; neighbour counts use a hash grid of cell {@code radius}.
 */
public final class DensityResampler {
    private final int maxPoints;
    private final double radius;

    /**
     * @param maxPoints the cap (at least 1)
     * @param radius    the neighbourhood radius for the density (nm, positive)
     */
    public DensityResampler(int maxPoints, double radius) {
        if (maxPoints < 1 || !(radius > 0)) {
            throw new IllegalArgumentException("need maxPoints >= 1 and radius > 0");
        }
        this.maxPoints = maxPoints;
        this.radius = radius;
    }

    public int maxPoints() {
        return maxPoints;
    }

    /** Writes {@code in} or a sample of it into {@code out} (which must be another instance). */
    public void resample(Particle in, Particle out) {
        int n = in.size();
        if (n <= maxPoints) {
            out.copyFrom(in);
            return;
        }
        int[] neighbours = neighbourCounts(in);
        SplittableRandom random = new SplittableRandom(seed(in));
        double[] keys = new double[n];
        Integer[] order = new Integer[n];
        for (int k = 0; k < n; k++) {
            // log(u)/w orders like u^(1/w) and keeps precision for large weights.
            keys[k] = Math.log(random.nextDouble(Double.MIN_NORMAL, 1.0)) / (1.0 + neighbours[k]);
            order[k] = k;
        }
        Arrays.sort(order, (a, b) -> Double.compare(keys[b], keys[a]));
        int[] kept = new int[maxPoints];
        for (int k = 0; k < maxPoints; k++) {
            kept[k] = order[k];
        }
        Arrays.sort(kept);
        out.clear();
        for (int k : kept) {
            out.add(in.x(k), in.y(k), in.sigma(k));
        }
    }

    /** For every localization, the others within {@code radius}. */
    int[] neighbourCounts(Particle p) {
        int n = p.size();
        Map<Long, int[]> cells = new HashMap<>();
        Map<Long, Integer> fill = new HashMap<>();
        for (int k = 0; k < n; k++) {
            fill.merge(cell(p.x(k), p.y(k)), 1, Integer::sum);
        }
        for (Map.Entry<Long, Integer> e : fill.entrySet()) {
            cells.put(e.getKey(), new int[e.getValue() + 1]);
        }
        for (int k = 0; k < n; k++) {
            int[] members = cells.get(cell(p.x(k), p.y(k)));
            members[++members[0]] = k;
        }
        double r2 = radius * radius;
        int[] counts = new int[n];
        for (int k = 0; k < n; k++) {
            long cx = (long) Math.floor(p.x(k) / radius);
            long cy = (long) Math.floor(p.y(k) / radius);
            int count = 0;
            for (long gx = cx - 1; gx <= cx + 1; gx++) {
                for (long gy = cy - 1; gy <= cy + 1; gy++) {
                    int[] members = cells.get(key(gx, gy));
                    if (members == null) {
                        continue;
                    }
                    for (int m = 1; m <= members[0]; m++) {
                        int o = members[m];
                        double dx = p.x(o) - p.x(k);
                        double dy = p.y(o) - p.y(k);
                        if (o != k && dx * dx + dy * dy <= r2) {
                            count++;
                        }
                    }
                }
            }
            counts[k] = count;
        }
        return counts;
    }

    private long cell(double x, double y) {
        return key((long) Math.floor(x / radius), (long) Math.floor(y / radius));
    }

    private static long key(long gx, long gy) {
        return (gx << 32) ^ (gy & 0xffffffffL);
    }

    private static long seed(Particle p) {
        long h = 0x9E3779B97F4A7C15L ^ p.size();
        for (int k = 0; k < p.size(); k++) {
            h = (h ^ Double.doubleToLongBits(p.x(k))) * 0x100000001B3L;
            h = (h ^ Double.doubleToLongBits(p.y(k))) * 0x100000001B3L;
        }
        return h;
    }
}
