package io.rocket.cli;

import io.rocket.output.MatrixLayout;
import io.rocket.output.NpyDtype;

import java.util.function.ToDoubleFunction;

/**
 * How a command's pair output is written, beyond its file name: the number type of {@code .npy} outputs, whether the
 * pairs are sparse (only kept pairs, as {@code (i, j, score)} records) or dense (every pair of the matrix), the
 * matrix layout of a dense output, and how a result becomes a number. Immutable; the {@code with} methods return
 * changed copies.
 *
 * @param dtype  the number type of {@code .npy} outputs
 * @param sparse whether only some pairs are written (a reduction keeps them): {@code .npy} outputs are then
 *               structured {@code (i, j, score)} arrays; else dense matrices
 * @param layout where each pair lies in a dense matrix; null for the triangle of all keys
 * @param score  turns a result into its number; null to take {@link Number} results as they are (see
 *               {@link ResultScores})
 */
public record OutputSettings(NpyDtype dtype, boolean sparse, MatrixLayout layout, ToDoubleFunction<?> score) {

    /** Float32, dense, the triangle of all keys, numbers as they are. */
    public static final OutputSettings DEFAULTS = new OutputSettings(NpyDtype.FLOAT32, false, null, null);

    /**
     * The same settings with another number type.
     *
     * @param type the number type of {@code .npy} outputs
     * @return the changed copy
     */
    public OutputSettings withDtype(NpyDtype type) {
        return new OutputSettings(type, sparse, layout, score);
    }

    /**
     * The same settings, sparse or dense.
     *
     * @param kept true when only some pairs are written (sparse records), false for a dense matrix
     * @return the changed copy
     */
    public OutputSettings withSparse(boolean kept) {
        return new OutputSettings(dtype, kept, layout, score);
    }

    /**
     * The same settings with another dense layout.
     *
     * @param matrix where each pair lies; null for the triangle of all keys
     * @return the changed copy
     */
    public OutputSettings withLayout(MatrixLayout matrix) {
        return new OutputSettings(dtype, sparse, matrix, score);
    }

    /**
     * The same settings with another score.
     *
     * @param <R>    the result type
     * @param number turns a result into its number; null for numeric results as they are
     * @return the changed copy
     */
    public <R> OutputSettings withScore(ToDoubleFunction<R> number) {
        return new OutputSettings(dtype, sparse, layout, number);
    }
}
