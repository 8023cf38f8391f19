package io.rocket.runtime;

import io.rocket.core.ResultSink;
import io.rocket.core.SinkFiles;

import java.util.List;

/** Hands every result to several sinks, e.g. the TSV file and an application's matrix or clustering builder. */
final class FanOutSink<K, R> implements ResultSink<K, R> {
    private final ResultSink<K, R> first;
    private final List<ResultSink<K, R>> rest;

    FanOutSink(ResultSink<K, R> first, List<ResultSink<K, R>> rest) {
        this.first = first;
        this.rest = List.copyOf(rest);
    }

    @Override
    public void accept(int i, int j, K left, K right, R result) {
        first.accept(i, j, left, right, result);
        for (ResultSink<K, R> sink : rest) {
            sink.accept(i, j, left, right, result);
        }
    }

    @Override
    public void failed(int i, int j, K left, K right, Throwable error) {
        first.failed(i, j, left, right, error);
        for (ResultSink<K, R> sink : rest) {
            sink.failed(i, j, left, right, error);
        }
    }

    @Override
    public void replay(int i, int j, K left, K right, R result) {
        first.replay(i, j, left, right, result);
        for (ResultSink<K, R> sink : rest) {
            sink.replay(i, j, left, right, result);
        }
    }

    @Override
    public void replayFailed(int i, int j, K left, K right, Throwable error) {
        first.replayFailed(i, j, left, right, error);
        for (ResultSink<K, R> sink : rest) {
            sink.replayFailed(i, j, left, right, error);
        }
    }

    /** The first sink's files (the TSV outputs; the others build in memory). */
    @Override
    public SinkFiles files() {
        return first.files();
    }
}
