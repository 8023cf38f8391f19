package io.rocket.apps.cli;

import io.rocket.core.ResultSink;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Streams results to a TSV edge list as they arrive: header {@code i j left right result}, one line per computed
 * pair. Failed pairs go to an optional errors TSV ({@code i j left right error}). Thread-safe; lines are formatted
 * into one reused builder under the lock.
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class TsvResultSink<K, R> implements ResultSink<K, R> {
    private final BufferedWriter out;
    private final BufferedWriter errors;
    private final Function<K, String> label;
    private final Function<R, String> format;
    private final StringBuilder line = new StringBuilder(128);

    /**
     * @param output     result file, or null to write none
     * @param errorsFile failed-pairs file, or null
     * @param label      key label for the left/right columns
     * @param format     result formatting
     * @param resultName header of the result column
     */
    public TsvResultSink(Path output, Path errorsFile, Function<K, String> label, Function<R, String> format,
                         String resultName) throws IOException {
        this.label = label;
        this.format = format;
        this.out = open(output, "i\tj\tleft\tright\t" + resultName);
        this.errors = open(errorsFile, "i\tj\tleft\tright\terror");
    }

    private static BufferedWriter open(Path file, String header) throws IOException {
        if (file == null) {
            return null;
        }
        BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        w.write(header);
        w.write('\n');
        return w;
    }

    @Override
    public void accept(int i, int j, K left, K right, R result) {
        if (out == null) {
            return;
        }
        synchronized (this) {
            line.setLength(0);
            line.append(i).append('\t').append(j).append('\t').append(label.apply(left)).append('\t')
                    .append(label.apply(right)).append('\t').append(format.apply(result)).append('\n');
            write(out, line);
        }
    }

    @Override
    public synchronized void failed(int i, int j, K left, K right, Throwable error) {
        if (errors == null) {
            return;
        }
        line.setLength(0);
        String message = String.valueOf(error.getMessage()).replace('\t', ' ').replace('\n', ' ');
        line.append(i).append('\t').append(j).append('\t').append(label.apply(left)).append('\t')
                .append(label.apply(right)).append('\t').append(message).append('\n');
        write(errors, line);
    }

    private static void write(BufferedWriter w, CharSequence text) {
        try {
            w.append(text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write results: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (out != null) {
            out.close();
        }
        if (errors != null) {
            errors.close();
        }
    }
}
