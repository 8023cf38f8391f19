package io.rocket.apps.forensics;

import java.util.Arrays;

/**
 * One cluster's neighbours in {@link SparseAverageLinkage}: for every cluster joined to it by at least one kept pair,
 * the sum of the kept scores between the two and how many there are. An open-addressing map from cluster id to
 * (sum, count) in three flat arrays with linear probing, so that a graph of E kept pairs costs a few arrays per
 * cluster rather than an object per pair; removal shifts the following run back, so no tombstones accumulate
 * while clusters merge. Not thread-safe: the clustering is one thread's work.
 */
final class NeighbourSums {

    private static final int EMPTY = -1;
    private static final int MIN_CAPACITY = 4;

    private int[] keys;
    private double[] sums;
    private int[] counts;
    private int size;

    /** An empty map. */
    NeighbourSums() {
        allocate(MIN_CAPACITY);
    }

    /** The number of neighbouring clusters. */
    int size() {
        return size;
    }

    /** The number of slots, for iterating with {@link #key}, {@link #sum} and {@link #count}. */
    int capacity() {
        return keys.length;
    }

    /** The neighbour in slot {@code slot}, or −1 where the slot is empty. */
    int key(int slot) {
        return keys[slot];
    }

    /** The sum of the kept scores to the neighbour in {@code slot}. */
    double sum(int slot) {
        return sums[slot];
    }

    /** The number of kept pairs to the neighbour in {@code slot}. */
    int count(int slot) {
        return counts[slot];
    }

    /** Adds {@code count} kept pairs with scores summing to {@code sum} to the entry of {@code key}. */
    void add(int key, double sum, int count) {
        int slot = find(key);
        if (keys[slot] == key) {
            sums[slot] += sum;
            counts[slot] += count;
            return;
        }
        keys[slot] = key;
        sums[slot] = sum;
        counts[slot] = count;
        if (++size * 2 > keys.length) {
            rehash(keys.length * 2);
        }
    }

    /** Sets the entry of {@code key} to one kept pair of {@code score}, replacing one there (a pair seen twice). */
    void putSingle(int key, double score) {
        int slot = find(key);
        if (keys[slot] == key) {
            sums[slot] = score;
            counts[slot] = 1;
            return;
        }
        add(key, score, 1);
    }

    /**
     * Removes the entry of {@code key} and returns its slot's former content through {@code into} (sum, count).
     *
     * @return whether there was an entry
     */
    boolean remove(int key, double[] into) {
        int slot = find(key);
        if (keys[slot] != key) {
            return false;
        }
        into[0] = sums[slot];
        into[1] = counts[slot];
        keys[slot] = EMPTY;
        size--;
        // Backward shift: move later members of the probe run into the hole when their home allows it.
        int mask = keys.length - 1;
        int hole = slot;
        for (int next = (slot + 1) & mask; keys[next] != EMPTY; next = (next + 1) & mask) {
            int home = home(keys[next], mask);
            if (((next - home) & mask) >= ((next - hole) & mask)) {
                keys[hole] = keys[next];
                sums[hole] = sums[next];
                counts[hole] = counts[next];
                keys[next] = EMPTY;
                hole = next;
            }
        }
        return true;
    }

    private int find(int key) {
        int mask = keys.length - 1;
        int slot = home(key, mask);
        while (keys[slot] != EMPTY && keys[slot] != key) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    private static int home(int key, int mask) {
        int h = key * 0x9E3779B9; // Fibonacci hashing spreads consecutive ids
        return (h ^ (h >>> 16)) & mask;
    }

    private void rehash(int capacity) {
        int[] oldKeys = keys;
        double[] oldSums = sums;
        int[] oldCounts = counts;
        allocate(capacity);
        size = 0;
        for (int s = 0; s < oldKeys.length; s++) {
            if (oldKeys[s] != EMPTY) {
                add(oldKeys[s], oldSums[s], oldCounts[s]);
            }
        }
    }

    private void allocate(int capacity) {
        keys = new int[capacity];
        Arrays.fill(keys, EMPTY);
        sums = new double[capacity];
        counts = new int[capacity];
    }
}
