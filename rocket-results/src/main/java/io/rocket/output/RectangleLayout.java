package io.rocket.output;

import java.util.Arrays;
import java.util.List;

/**
 * A row-major matrix of some items (the rows, queries say) against others (the columns, references): the element of
 * the row item at position {@code r} and the column item at position {@code c} is {@code r·|cols| + c}. Rows and
 * columns may share items. For a symmetric function a pair's result fills both {@code (i, j)} and {@code (j, i)}
 * where the layout has them, so a pair computed once appears wherever the matrix asks for it; for an asymmetric one
 * only {@code (i, j)}. The diagonal of a shared item is never a pair and stays unfilled.
 */
public final class RectangleLayout implements MatrixLayout {
    private final int[] rows;
    private final int[] cols;
    private final int[] rowOf;
    private final int[] colOf;
    private final boolean symmetric;

    /**
     * A rectangle over items {@code 0..items-1}.
     *
     * @param items     the number of items the indices refer to
     * @param rows      the row items, in order, each at most once
     * @param cols      the column items, in order, each at most once
     * @param symmetric whether {@code f(i, j) = f(j, i)}, so a pair also fills its mirror element
     * @throws IllegalArgumentException when an item is out of range or appears twice on one axis
     */
    public RectangleLayout(int items, int[] rows, int[] cols, boolean symmetric) {
        this.rows = rows.clone();
        this.cols = cols.clone();
        this.rowOf = positions(items, this.rows, "row");
        this.colOf = positions(items, this.cols, "column");
        this.symmetric = symmetric;
    }

    private static int[] positions(int items, int[] axis, String name) {
        int[] position = new int[items];
        Arrays.fill(position, -1);
        for (int k = 0; k < axis.length; k++) {
            int item = axis[k];
            if (item < 0 || item >= items) {
                throw new IllegalArgumentException(name + " item " + item + " is outside 0.." + (items - 1));
            }
            if (position[item] >= 0) {
                throw new IllegalArgumentException(name + " item " + item + " appears twice");
            }
            position[item] = k;
        }
        return position;
    }

    @Override
    public long elements() {
        return (long) rows.length * cols.length;
    }

    @Override
    public long[] shape() {
        return new long[] {rows.length, cols.length};
    }

    @Override
    public long index(int i, int j) {
        if (i == j || i < 0 || j < 0 || i >= rowOf.length || j >= colOf.length) {
            return -1;
        }
        int r = rowOf[i];
        int c = colOf[j];
        return r < 0 || c < 0 ? -1 : (long) r * cols.length + c;
    }

    @Override
    public int indices(int i, int j, long[] into) {
        int count = 0;
        long forward = index(i, j);
        if (forward >= 0) {
            into[count++] = forward;
        }
        if (symmetric) {
            long mirror = index(j, i);
            if (mirror >= 0) {
                into[count++] = mirror;
            }
        }
        return count;
    }

    @Override
    public List<Axis> axes() {
        return List.of(new Axis("rows", rows.clone()), new Axis("cols", cols.clone()));
    }
}
