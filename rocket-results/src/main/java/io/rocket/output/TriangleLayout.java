package io.rocket.output;

import java.util.List;
import java.util.stream.IntStream;

/**
 * The pairs {@code i < j} of {@code n} items in the condensed order of SciPy's {@code squareform} and {@code pdist}:
 * row by row of the upper triangle, so the element of {@code (i, j)} is {@code n·i − i(i+1)/2 + j − i − 1} and there
 * are {@code n(n−1)/2}. A pair given as {@code (j, i)} has the same element.
 */
public final class TriangleLayout implements MatrixLayout {
    private final int n;

    /**
     * The triangle of {@code n} items.
     *
     * @param n the number of items, at least 0
     * @throws IllegalArgumentException when {@code n} is negative
     */
    public TriangleLayout(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("item count must be at least 0, got " + n);
        }
        this.n = n;
    }

    @Override
    public long elements() {
        return (long) n * (n - 1) / 2;
    }

    @Override
    public long[] shape() {
        return new long[] {elements()};
    }

    @Override
    public long index(int i, int j) {
        if (i == j || i < 0 || j < 0 || i >= n || j >= n) {
            return -1;
        }
        long a = Math.min(i, j);
        long b = Math.max(i, j);
        return n * a - a * (a + 1) / 2 + b - a - 1;
    }

    @Override
    public int indices(int i, int j, long[] into) {
        long index = index(i, j);
        if (index < 0) {
            return 0;
        }
        into[0] = index;
        return 1;
    }

    @Override
    public List<Axis> axes() {
        return List.of(new Axis("labels", IntStream.range(0, n).toArray()));
    }
}
