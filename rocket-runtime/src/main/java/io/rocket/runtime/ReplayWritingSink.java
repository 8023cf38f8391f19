package io.rocket.runtime;

import io.rocket.core.ResultSink;

/**
 * Writes the results replayed from a result store like new ones: a run with {@code --store} writes its output files
 * anew, so they must hold the stored pairs too (a journal's resumed run, by contrast, keeps the files it cut back and
 * skips what they already hold).
 */
final class ReplayWritingSink<K, R> implements ResultSink<K, R> {
    private final ResultSink<K, R> next;

    ReplayWritingSink(ResultSink<K, R> next) {
        this.next = next;
    }

    @Override
    public void accept(int i, int j, K left, K right, R result) {
        next.accept(i, j, left, right, result);
    }

    @Override
    public void failed(int i, int j, K left, K right, Throwable error) {
        next.failed(i, j, left, right, error);
    }

    @Override
    public void replay(int i, int j, K left, K right, R result) {
        next.accept(i, j, left, right, result);
    }

    @Override
    public void replayFailed(int i, int j, K left, K right, Throwable error) {
        next.failed(i, j, left, right, error);
    }
}
