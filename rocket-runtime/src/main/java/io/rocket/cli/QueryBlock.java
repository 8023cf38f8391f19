package io.rocket.cli;

import io.rocket.output.RectangleLayout;
import io.rocket.steal.PairSpace;

import java.util.stream.IntStream;

/**
 * Where the queries and the references of an {@code --against} run lie in its combined item list
 * ({@link io.rocket.runtime.QueryReference}): the queries are items {@code 0..queries-1}, the references items
 * {@code referenceStart..items-1}; the two ranges overlap on the items given in both lists.
 *
 * @param items          the number of combined items
 * @param queries        how many of the first items are queries
 * @param referenceStart the index of the first reference
 */
public record QueryBlock(int items, int queries, int referenceStart) {

    /**
     * Checks the ranges.
     *
     * @param items          the number of combined items
     * @param queries        how many of the first items are queries
     * @param referenceStart the index of the first reference
     * @throws IllegalArgumentException when a range is empty or outside the items
     */
    public QueryBlock {
        if (queries < 1 || queries > items || referenceStart < 0 || referenceStart >= items
                || referenceStart > queries) {
            throw new IllegalArgumentException("queries 0.." + (queries - 1) + " and references " + referenceStart
                    + ".." + (items - 1) + " do not fit " + items + " items");
        }
    }

    /**
     * Whether item {@code i} is a query.
     *
     * @param i an item index
     * @return true for {@code 0 <= i < queries}
     */
    public boolean isQuery(int i) {
        return i >= 0 && i < queries;
    }

    /**
     * Whether item {@code i} is a reference.
     *
     * @param i an item index
     * @return true for {@code referenceStart <= i < items}
     */
    public boolean isReference(int i) {
        return i >= referenceStart && i < items;
    }

    /**
     * The number of references.
     *
     * @return {@code items - referenceStart}
     */
    public int references() {
        return items - referenceStart;
    }

    /**
     * The pairs of a query and a reference.
     *
     * @return the rectangle {@link PairSpace#rectangle(int, int, int)} of these ranges
     */
    public PairSpace space() {
        return PairSpace.rectangle(items, queries, referenceStart);
    }

    /**
     * The dense matrix of the queries (rows, in order) against the references (columns, in order).
     *
     * @param symmetric whether the application's function is symmetric, so a pair of two items in both lists
     *                  fills both its elements
     * @return the row-major layout
     */
    public RectangleLayout layout(boolean symmetric) {
        return new RectangleLayout(items, IntStream.range(0, queries).toArray(),
                IntStream.range(referenceStart, items).toArray(), symmetric);
    }
}
