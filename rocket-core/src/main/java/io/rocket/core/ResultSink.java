package io.rocket.core;

/**
 * Receives results as they arrive, from several threads at once; implementations must be thread-safe. Results are
 * streamed: the runtime never holds all of them.
 *
 * @param <K> key type
 * @param <R> result type
 */
public interface ResultSink<K, R> extends AutoCloseable {

    /**
     * One pair {@code i < j} computed.
     *
     * @param i the index of the pair's first item in the key array
     * @param j the index of the pair's second item, greater than {@code i} (or, for an
     *        {@link Application#ordered() ordered} application, any other index)
     * @param left the key at index {@code i}, never null
     * @param right the key at index {@code j}, never null
     * @param result what {@link Application#postprocess} returned for the pair
     */
    void accept(int i, int j, K left, K right, R result);

    /**
     * One pair {@code i < j} that could not be computed, with the reason.
     *
     * @param i the index of the pair's first item in the key array
     * @param j the index of the pair's second item, greater than {@code i} (or, for an
     *        {@link Application#ordered() ordered} application, any other index)
     * @param left the key at index {@code i}, never null
     * @param right the key at index {@code j}, never null
     * @param error the reason, never null: an {@link ItemException} when one of the items failed to load, a
     *        {@link PairException} when the pair itself failed; for a pair that failed on another cluster node, an
     *        exception carrying only the original message
     */
    void failed(int i, int j, K left, K right, Throwable error);

    /**
     * A result recorded by an earlier run of the same job and read back from its journal on resume. Sinks that
     * build something in memory take it like a new result (the default); a sink whose {@link #files} already hold it
     * ignores it.
     *
     * @param i the index of the pair's first item in the key array
     * @param j the index of the pair's second item, greater than {@code i} (or, for an
     *        {@link Application#ordered() ordered} application, any other index)
     * @param left the key at index {@code i}, never null
     * @param right the key at index {@code j}, never null
     * @param result the result as the journal recorded it (decoded with the application's {@link ResultCodec})
     */
    default void replay(int i, int j, K left, K right, R result) {
        accept(i, j, left, right, result);
    }

    /**
     * A failed pair read back from a journal; see {@link #replay}.
     *
     * @param i the index of the pair's first item in the key array
     * @param j the index of the pair's second item, greater than {@code i} (or, for an
     *        {@link Application#ordered() ordered} application, any other index)
     * @param left the key at index {@code i}, never null
     * @param right the key at index {@code j}, never null
     * @param error the recorded reason, rebuilt from the journal (its message; the original stack trace is gone)
     */
    default void replayFailed(int i, int j, K left, K right, Throwable error) {
        failed(i, j, left, right, error);
    }

    /**
     * The files this sink appends to, which a run journal keeps in step with the results it records.
     *
     * @return the sink's files, never null; {@link SinkFiles#NONE} (the default) for a sink that writes none
     */
    default SinkFiles files() {
        return SinkFiles.NONE;
    }

    /** Flushes and releases whatever the sink holds. */
    @Override
    default void close() throws Exception {
    }
}
