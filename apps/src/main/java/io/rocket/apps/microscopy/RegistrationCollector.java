package io.rocket.apps.microscopy;

import io.rocket.core.ResultSink;

import java.nio.file.Path;

/**
 * Keeps every pair's registration as results stream in, for fusion and the truth check: n(n−1)/2 entries in one
 * array (a run's particles number in the thousands at most). Thread-safe; failed pairs stay empty.
 */
public final class RegistrationCollector implements ResultSink<Path, Registration> {
    private final int n;
    private final Registration[] pairs;

    public RegistrationCollector(int n) {
        this.n = n;
        this.pairs = new Registration[n * (n - 1) / 2];
    }

    public int size() {
        return n;
    }

    private int index(int i, int j) {
        // Row i holds pairs (i, i+1..n−1).
        return i * n - i * (i + 1) / 2 + (j - i - 1);
    }

    @Override
    public synchronized void accept(int i, int j, Path left, Path right, Registration result) {
        pairs[index(i, j)] = result;
    }

    @Override
    public void failed(int i, int j, Path left, Path right, Throwable error) {
        // Left empty: fusion and the truth check skip the pair.
    }

    /** The registration of i onto j (i &lt; j), or null when the pair failed. */
    public synchronized Registration get(int i, int j) {
        return pairs[index(i, j)];
    }
}
