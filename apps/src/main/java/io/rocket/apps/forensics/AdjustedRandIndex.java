package io.rocket.apps.forensics;

import java.util.HashMap;
import java.util.Map;

/**
 * The adjusted Rand index (Hubert and Arabie 1985) between two partitions of the same items: 1 for identical
 * partitions (up to renaming), about 0 for independent random ones. Used to score a clustering against the
 * generator's ground truth. Labels are arbitrary ints; when the index is undefined (both partitions all
 * singletons, or both one cluster) it is 1 for identical partitions and 0 otherwise.
 */
public final class AdjustedRandIndex {

    private AdjustedRandIndex() {
    }

    /** ARI of partitions {@code a} and {@code b} (label per item). */
    public static double of(int[] a, int[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("partitions of " + a.length + " and " + b.length + " items");
        }
        int n = a.length;
        Map<Long, Integer> cells = new HashMap<>();
        Map<Integer, Integer> rows = new HashMap<>();
        Map<Integer, Integer> cols = new HashMap<>();
        for (int i = 0; i < n; i++) {
            cells.merge(((long) a[i] << 32) ^ (b[i] & 0xffffffffL), 1, Integer::sum);
            rows.merge(a[i], 1, Integer::sum);
            cols.merge(b[i], 1, Integer::sum);
        }
        double index = 0;
        for (int c : cells.values()) {
            index += pairs(c);
        }
        double sumA = 0;
        for (int c : rows.values()) {
            sumA += pairs(c);
        }
        double sumB = 0;
        for (int c : cols.values()) {
            sumB += pairs(c);
        }
        double expected = n > 1 ? sumA * sumB / pairs(n) : 0;
        double max = 0.5 * (sumA + sumB);
        if (max == expected) {
            return index == max && rows.size() == cells.size() && cols.size() == cells.size() ? 1.0 : 0.0;
        }
        return (index - expected) / (max - expected);
    }

    private static double pairs(long c) {
        return c * (c - 1) / 2.0;
    }
}
