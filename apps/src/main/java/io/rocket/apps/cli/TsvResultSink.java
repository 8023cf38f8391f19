package io.rocket.apps.cli;

import io.rocket.core.ResultSink;
import io.rocket.core.SinkFiles;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Streams results to a TSV edge list as they arrive: header {@code i j left right result}, one line per computed
 * pair. Failed pairs go to an optional errors TSV ({@code i j left right error}). Thread-safe; lines are formatted
 * into one reused builder under the lock. Its files are {@link SinkFiles} for a run journal: opened for resuming,
 * they are left as they are until the journal cuts them back, and replayed results are not written again.
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class TsvResultSink<K, R> implements ResultSink<K, R>, SinkFiles {
    private final Output out;
    private final Output errors;
    private final List<Output> outputs = new ArrayList<>(2);
    private final Function<K, String> label;
    private final Function<R, String> format;
    private final StringBuilder line = new StringBuilder(128);

    /**
     * @param output     result file, or null to write none
     * @param errorsFile failed-pairs file, or null
     * @param label      key label for the left/right columns
     * @param format     result formatting
     * @param resultName header of the result column
     * @param resume     leave existing files alone until a journal {@link #cut}s them (else they start anew)
     */
    public TsvResultSink(Path output, Path errorsFile, Function<K, String> label, Function<R, String> format,
                         String resultName, boolean resume) throws IOException {
        this.label = label;
        this.format = format;
        this.out = output == null ? null : new Output(output, "i\tj\tleft\tright\t" + resultName);
        this.errors = errorsFile == null ? null : new Output(errorsFile, "i\tj\tleft\tright\terror");
        for (Output o : new Output[] {out, errors}) {
            if (o != null) {
                outputs.add(o);
                if (!resume) {
                    o.cut(0);
                }
            }
        }
    }

    /** A sink that starts its files anew. */
    public TsvResultSink(Path output, Path errorsFile, Function<K, String> label, Function<R, String> format,
                         String resultName) throws IOException {
        this(output, errorsFile, label, format, resultName, false);
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
            out.write(line);
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
        errors.write(line);
    }

    /** The files already hold replayed results (up to where the journal cut them). */
    @Override
    public void replay(int i, int j, K left, K right, R result) {
    }

    @Override
    public void replayFailed(int i, int j, K left, K right, Throwable error) {
    }

    @Override
    public SinkFiles files() {
        return this;
    }

    @Override
    public List<Path> paths() {
        return outputs.stream().map(o -> o.path).toList();
    }

    @Override
    public synchronized long[] flush() throws IOException {
        long[] lengths = new long[outputs.size()];
        for (int k = 0; k < lengths.length; k++) {
            lengths[k] = outputs.get(k).flush();
        }
        return lengths;
    }

    @Override
    public void force() throws IOException {
        for (Output o : outputs) {
            o.force();
        }
    }

    @Override
    public synchronized void cut(long[] lengths) throws IOException {
        for (int k = 0; k < lengths.length; k++) {
            outputs.get(k).cut(lengths[k]);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        for (Output o : outputs) {
            o.close();
        }
    }

    /** One appended file: its channel (to flush, fsync and cut) and a buffered writer on it. */
    private static final class Output {
        final Path path;
        final String header;
        SeekableByteChannel channel;
        Writer writer;

        Output(Path path, String header) {
            this.path = path;
            this.header = header;
        }

        /** Cuts the file back to {@code length} bytes and appends from there; 0 starts it anew with its header. */
        void cut(long length) throws IOException {
            close();
            channel = Files.newByteChannel(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            long size = channel.size();
            if (size < length) {
                channel.close();
                throw new IOException(path + " holds " + size + " bytes, fewer than the " + length
                        + " recorded in the journal: it changed after the run stopped");
            }
            channel.truncate(length);
            channel.position(length);
            writer = new BufferedWriter(new OutputStreamWriter(Channels.newOutputStream(channel),
                    StandardCharsets.UTF_8), 1 << 16);
            if (length == 0) {
                writer.write(header);
                writer.write('\n');
            }
        }

        void write(CharSequence text) {
            try {
                writer.append(text);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write results: " + e.getMessage(), e);
            }
        }

        long flush() throws IOException {
            writer.flush();
            return channel.position();
        }

        void force() throws IOException {
            if (channel instanceof FileChannel file) {
                file.force(false);
            }
        }

        void close() throws IOException {
            if (writer != null) {
                writer.close();
                writer = null;
            }
        }
    }
}
