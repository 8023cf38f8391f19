package io.rocket.output;

import io.rocket.core.ResultSink;
import io.rocket.core.SinkFiles;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An {@code .npy} output and the TSV of failed pairs as one sink: results go to the numbers, failures to both (a
 * dense matrix marks them NaN), and a run journal sees the files of both, the numbers' first.
 */
public final class NumericPairOutput<K, R> implements PairOutput<K, R>, SinkFiles {
    private final ResultSink<K, R> numbers;
    private final TsvResultSink<K, R> failures;
    private final SinkFiles numberFiles;
    private final List<Path> paths;

    /**
     * @param numbers  the {@code .npy} sink
     * @param failures the TSV of failed pairs
     */
    public NumericPairOutput(ResultSink<K, R> numbers, TsvResultSink<K, R> failures) {
        this.numbers = numbers;
        this.failures = failures;
        this.numberFiles = numbers.files();
        List<Path> all = new ArrayList<>(numberFiles.paths());
        all.addAll(failures.paths());
        this.paths = List.copyOf(all);
    }

    @Override
    public void accept(int i, int j, K left, K right, R result) {
        numbers.accept(i, j, left, right, result);
    }

    @Override
    public void failed(int i, int j, K left, K right, Throwable error) {
        numbers.failed(i, j, left, right, error);
        failures.failed(i, j, left, right, error);
    }

    @Override
    public void replay(int i, int j, K left, K right, R result) {
        numbers.replay(i, j, left, right, result);
    }

    @Override
    public void replayFailed(int i, int j, K left, K right, Throwable error) {
        numbers.replayFailed(i, j, left, right, error);
        failures.replayFailed(i, j, left, right, error);
    }

    @Override
    public SinkFiles files() {
        return this;
    }

    @Override
    public List<Path> paths() {
        return paths;
    }

    @Override
    public long[] flush() throws IOException {
        long[] first = numberFiles.flush();
        long[] second = failures.flush();
        long[] all = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }

    @Override
    public void force() throws IOException {
        numberFiles.force();
        failures.force();
    }

    @Override
    public void cut(long[] lengths) throws IOException {
        int split = numberFiles.paths().size();
        numberFiles.cut(Arrays.copyOfRange(lengths, 0, split));
        failures.cut(Arrays.copyOfRange(lengths, split, lengths.length));
    }

    /** The failed pairs' TSV; the numbers are written in blocks as they fill, and the rest when closed. */
    @Override
    public void writeOut() throws IOException {
        failures.writeOut();
    }

    @Override
    public void close() throws Exception {
        try {
            numbers.close();
        } finally {
            failures.close();
        }
    }
}
