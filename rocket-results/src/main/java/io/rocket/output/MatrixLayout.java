package io.rocket.output;

import java.util.List;

/**
 * Where each pair's result lies in a dense matrix file: the elements a pair {@code (i, j)} of item indices fills, the
 * number of elements and the array's shape. A result store, an {@code .npy} writer or a reader all place pairs by
 * the same layout, so a layout is the one definition of a dense output's order.
 */
public interface MatrixLayout {

    /**
     * The number of elements.
     *
     * @return the element count, at least 0
     */
    long elements();

    /**
     * The array's shape, whose product is {@link #elements()}: one axis for a condensed triangle, rows and columns
     * for a rectangle.
     *
     * @return the shape; a new array each call
     */
    long[] shape();

    /**
     * The element of the pair of item {@code i} (its row) and item {@code j} (its column), in this layout's order.
     *
     * @param i an item index
     * @param j another item index
     * @return the element's index, or -1 when the layout has no element for the pair
     */
    long index(int i, int j);

    /**
     * Every element a computed pair's result fills: {@link #index(int, int)}, and for a symmetric layout also the
     * element of {@code (j, i)} where it has one (a rectangle whose rows and columns share items).
     *
     * @param i the pair's first item index
     * @param j the pair's second item index
     * @param into receives the element indices; at least 2 long
     * @return how many elements {@code into} now holds: 0 (the pair is outside the layout), 1 or 2
     */
    int indices(int i, int j, long[] into);

    /**
     * The axes whose items label the elements, each written beside the matrix as one label per line.
     *
     * @return the axes, in the order of the shape's labelled dimensions; for a triangle one axis of all items
     */
    List<Axis> axes();

    /**
     * One labelled axis.
     *
     * @param name  the axis' name, which names its label file ({@code NAME.labels.txt}, {@code NAME.rows.txt})
     * @param items the item indices along the axis, in order
     */
    record Axis(String name, int[] items) {
    }
}
