package io.rocket.apps.microscopy;

import java.util.Arrays;

/**
 * The localizations of one particle: positions (nm) and their localization precision σ (nm, a standard deviation).
 * A growable buffer: the parser, the resampler and the generator reuse one instance per thread, so {@link #clear()}
 * keeps the arrays.
 */
public final class Particle {
    private double[] x;
    private double[] y;
    private double[] sigma;
    private int size;

    public Particle() {
        this(256);
    }

    public Particle(int capacity) {
        x = new double[Math.max(1, capacity)];
        y = new double[x.length];
        sigma = new double[x.length];
    }

    /** Appends one localization. */
    public void add(double px, double py, double ps) {
        if (size == x.length) {
            int grown = x.length * 2;
            x = Arrays.copyOf(x, grown);
            y = Arrays.copyOf(y, grown);
            sigma = Arrays.copyOf(sigma, grown);
        }
        x[size] = px;
        y[size] = py;
        sigma[size] = ps;
        size++;
    }

    /** Empties the particle, keeping its storage. */
    public void clear() {
        size = 0;
    }

    public int size() {
        return size;
    }

    public double x(int k) {
        return x[k];
    }

    public double y(int k) {
        return y[k];
    }

    public double sigma(int k) {
        return sigma[k];
    }

    /** Replaces the contents with {@code other}'s. */
    public void copyFrom(Particle other) {
        clear();
        for (int k = 0; k < other.size; k++) {
            add(other.x[k], other.y[k], other.sigma[k]);
        }
    }
}
