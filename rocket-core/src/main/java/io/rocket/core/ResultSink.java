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

    /** Flushes and releases whatever the sink holds. */
    @Override
    default void close() throws Exception {
    }
}
