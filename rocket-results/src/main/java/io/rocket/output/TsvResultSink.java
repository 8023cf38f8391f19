package io.rocket.output;

import io.rocket.core.ResultSink;
import io.rocket.core.SinkFiles;


import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Writes results to a TSV edge list as they arrive: header {@code i j left right RESULT}, one line per computed
 * pair; a file whose name ends in {@code .gz} is gzip-compressed (in members, so a journal can cut it), and
 * {@code -} is standard output. Failed pairs go to an optional errors TSV ({@code i j left right error}).
 * Thread-safe; lines are formatted into one reused builder under the lock. Its files are {@link SinkFiles} for a run
 * journal: opened for resuming, they are left as they are until the journal cuts them back, and replayed results
 * are not written again. Without a journal, {@link #writeOut} puts what is held in memory into the files.
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class TsvResultSink<K, R> implements PairOutput<K, R>, SinkFiles {
    private final Output out;
    private final Output errors;
    private final List<Output> outputs = new ArrayList<>(2);
    private final Function<K, String> label;
    /** Each item's label, made once: a line names two items, and a run writes many lines per item. */
    private final Labels<K> labels;
    private final Function<R, String> format;
    private final StringBuilder line = new StringBuilder(128);
    private long results;

    /**
     * Opens the sink's files, creating them if needed; without {@code resume}, each starts anew with its header.
     *
     * @param output     result file, {@code -} for {@code stdout}, or null to write none
     * @param stdout     where results go when {@code output} is {@code -}
     * @param errorsFile failed-pairs file, or null
     * @param label      key label for the left/right columns
     * @param format     result formatting
     * @param resultName header of the result column
     * @param resume     leave existing files alone until a journal {@link #cut}s them (else they start anew)
     * @throws IOException when a file cannot be created, opened or truncated
     */
    public TsvResultSink(Path output, Writer stdout, Path errorsFile, Function<K, String> label,
                         Function<R, String> format, String resultName, boolean resume) throws IOException {
        this.label = label;
        this.labels = new Labels<>(label);
        this.format = format;
        String header = "i\tj\tleft\tright\t" + resultName;
        this.out = output == null ? null : "-".equals(output.toString()) ? new Output(stdout, header)
                : new Output(output, header);
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

    /**
     * Opens the sink's files, creating them if needed; without {@code resume}, each starts anew with its header.
     *
     * @param output     result file, or null to write none
     * @param errorsFile failed-pairs file, or null
     * @param label      key label for the left/right columns
     * @param format     result formatting
     * @param resultName header of the result column
     * @param resume     leave existing files alone until a journal {@link #cut}s them (else they start anew)
     * @throws IOException when a file cannot be created, opened or truncated
     */
    public TsvResultSink(Path output, Path errorsFile, Function<K, String> label, Function<R, String> format,
                         String resultName, boolean resume) throws IOException {
        this(output, null, errorsFile, label, format, resultName, resume);
    }

    /**
     * A sink that starts its files anew: each is created or truncated and begins with its header.
     *
     * @param output     result file, or null to write none
     * @param errorsFile failed-pairs file, or null
     * @param label      key label for the left/right columns; called under the sink's lock
     * @param format     result formatting for the result column; called under the sink's lock, so it should be
     *                   quick; what it returns is written as is (no escaping of tabs or newlines)
     * @param resultName header of the result column
     * @throws IOException when a file cannot be created, opened or truncated
     */
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
            line.append(i).append('\t').append(j).append('\t').append(labels.of(i, left)).append('\t')
                    .append(labels.of(j, right)).append('\t').append(format.apply(result)).append('\n');
            out.write(line);
            results++;
        }
    }

    /**
     * How many results this sink has written since it was opened (replayed ones, already in the files, excluded).
     *
     * @return the number of result lines written
     */
    public synchronized long results() {
        return results;
    }

    @Override
    public long resultsWritten() {
        return results();
    }

    @Override
    public synchronized void writeOut() throws IOException {
        for (Output o : outputs) {
            o.writeOut();
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
        return outputs.stream().map(o -> o.path).filter(p -> p != null).toList();
    }

    @Override
    public synchronized long[] flush() throws IOException {
        long[] lengths = new long[outputs.size()];
        for (int k = 0; k < lengths.length; k++) {
            lengths[k] = outputs.get(k).mark();
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

    /**
     * One appended text file ({@link AppendFile}), gzip-compressed when its name ends in {@code .gz}: then each journal
     * mark ends a gzip member, so the journal can cut the file back between members. Lines are encoded under the
     * sink's lock; the file's chunks are written as {@link AppendFile} says. Or standard output ({@code path} null),
     * which a journal never drives (a command refuses {@code --output -} with {@code --journal}).
     */
    private static final class Output {
        final Path path;
        private final String header;
        private final AppendFile file;
        private final GzipMembers gzip;
        private final Writer writer;

        Output(Path path, String header) {
            this.path = path;
            this.header = header;
            this.file = new AppendFile(path);
            this.gzip = path.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".gz")
                    ? new GzipMembers(file) : null;
            this.writer = new OutputStreamWriter(gzip != null ? gzip : file, StandardCharsets.UTF_8);
        }

        Output(Writer stdout, String header) {
            this.path = null;
            this.header = header;
            this.file = null;
            this.gzip = null;
            this.writer = java.util.Objects.requireNonNull(stdout, "stdout");
        }

        /** Cuts the file back to {@code length} bytes and appends from there; 0 starts it anew with its header. */
        void cut(long length) throws IOException {
            end();
            if (file != null) {
                file.cut(length);
            } else if (length != 0) {
                throw new IOException("standard output cannot be cut back");
            }
            if (length == 0) {
                write(header + "\n");
            }
        }

        /** Characters of the line being written; grown to the longest line. Under the sink's lock. */
        private char[] chars = new char[256];

        void write(CharSequence text) {
            try {
                // Writer.append(CharSequence) makes a String of each line: one per pair. Copy into a reused array.
                int n = text.length();
                if (n > chars.length) {
                    chars = new char[Math.max(n, 2 * chars.length)];
                }
                if (text instanceof StringBuilder b) {
                    b.getChars(0, n, chars, 0);
                } else {
                    text.toString().getChars(0, n, chars, 0);
                }
                writer.write(chars, 0, n);
                if (file != null) {
                    file.written();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(named(e));
            }
        }

        /** The exception with the file named first, as messages show it: {@code pairs.tsv: No space left on device}. */
        private IOException named(IOException e) {
            return new IOException((path == null ? "standard output" : path.toString()) + ": " + e.getMessage(), e);
        }

        /** Puts what is held in memory into the file (a gzip file gets a member end), unless a journal drives it. */
        void writeOut() throws IOException {
            try {
                if (file == null) {
                    writer.flush();
                } else if (!file.isJournaled() && file.isOpen()) {
                    end();
                    file.writeOut();
                }
            } catch (IOException e) {
                throw named(e);
            }
        }

        /** Hands what the writer (and the gzip member) holds to the file. */
        private void end() throws IOException {
            writer.flush();
            if (gzip != null) {
                gzip.finishMember();
            }
        }

        /** Ends the file's content here (a journal drives the sink from now on); returns its length then. */
        long mark() throws IOException {
            end();
            return file == null ? 0 : file.mark();
        }

        /** Writes what {@link #mark} ended and makes it durable. */
        void force() throws IOException {
            if (file != null) {
                file.force();
            }
        }

        void close() throws IOException {
            try {
                if (file == null) {
                    writer.flush(); // standard output stays open
                } else if (file.isOpen()) {
                    end();
                    if (gzip != null) {
                        gzip.close(); // frees the deflater, closes the file
                    } else {
                        file.close();
                    }
                }
            } catch (IOException e) {
                throw named(e);
            }
        }
    }

    /** Labels of items by index, made on first use and kept; used under the sink's lock. */
    private static final class Labels<K> {
        private final Function<K, String> label;
        private String[] made = new String[64];

        Labels(Function<K, String> label) {
            this.label = label;
        }

        String of(int item, K key) {
            if (item >= made.length) {
                made = java.util.Arrays.copyOf(made, Math.max(item + 1, 2 * made.length));
            }
            String s = made[item];
            if (s == null) {
                s = label.apply(key);
                made[item] = s;
            }
            return s;
        }
    }
}
