package io.rocket.core;

/**
 * Receives results as they arrive, from several threads at once; implementations must be thread-safe. Results are
 * streamed: the runtime never holds all of them.
 *
 * @param <K> key type
 * @param <R> result type
 */
public interface ResultSink<K, R> extends AutoCloseable {

    /** One pair {@code i < j} computed. */
    void accept(int i, int j, K left, K right, R result);

    /** One pair {@code i < j} that could not be computed, with the reason. */
    void failed(int i, int j, K left, K right, Throwable error);

    /**
     * A result recorded by an earlier run of the same job and read back from its journal on resume. Sinks that
     * build something in memory take it like a new result (the default); a sink whose {@link #files} already hold it
     * ignores it.
     */
    default void replay(int i, int j, K left, K right, R result) {
        accept(i, j, left, right, result);
    }

    /** A failed pair read back from a journal; see {@link #replay}. */
    default void replayFailed(int i, int j, K left, K right, Throwable error) {
        failed(i, j, left, right, error);
    }

    /** The files this sink appends to, which a run journal keeps in step with the results it records. */
    default SinkFiles files() {
        return SinkFiles.NONE;
    }

    /** Flushes and releases whatever the sink holds. */
    @Override
    default void close() throws Exception {
    }
}
