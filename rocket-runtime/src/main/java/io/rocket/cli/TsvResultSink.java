package io.rocket.cli;

import io.rocket.core.ResultSink;
import io.rocket.core.SinkFiles;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
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
     * One appended file. Lines are encoded into 64 KiB chunks in memory. Alone, the sink writes each chunk as it
     * fills; once a journal drives it ({@link #flush}), chunks are written only by {@link #force}, on the journal's
     * thread and outside the sink's lock, so that no result waits for the disk while the file is being synced.
     * The chunk queue is guarded by {@code ready}, the channel's writes by {@code drain}; the rest by the sink's lock.
     */
    private static final class Output extends OutputStream {
        private static final int CHUNK = 1 << 16;
        /** Bytes a journaled sink holds before it writes them itself (a sync that is very late). */
        private static final long MAX_HELD = 64L << 20;

        final Path path;
        private final String header;
        private final Writer writer = new OutputStreamWriter(this, StandardCharsets.UTF_8);
        private final ArrayDeque<ByteBuffer> ready = new ArrayDeque<>();
        private final Object drain = new Object();
        private SeekableByteChannel channel;
        private byte[] pending = new byte[CHUNK];
        private int size;
        private long held;
        private long end;
        private boolean journaled;

        Output(Path path, String header) {
            this.path = path;
            this.header = header;
        }

        /** Cuts the file back to {@code length} bytes and appends from there; 0 starts it anew with its header. */
        void cut(long length) throws IOException {
            close();
            channel = Files.newByteChannel(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            long fileSize = channel.size();
            if (fileSize < length) {
                channel.close();
                throw new IOException(path + " holds " + fileSize + " bytes, fewer than the " + length
                        + " recorded in the journal: it changed after the run stopped");
            }
            channel.truncate(length);
            channel.position(length);
            end = length;
            if (length == 0) {
                write(header + "\n");
            }
        }

        void write(CharSequence text) {
            try {
                writer.append(text);
                boolean full;
                synchronized (ready) {
                    full = journaled ? held >= MAX_HELD : !ready.isEmpty();
                }
                if (full) {
                    drain();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write results: " + e.getMessage(), e);
            }
        }

        @Override
        public void write(int b) {
            if (size == CHUNK) {
                seal();
            }
            pending[size++] = (byte) b;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            while (length > 0) {
                if (size == CHUNK) {
                    seal();
                }
                int n = Math.min(length, CHUNK - size);
                System.arraycopy(bytes, offset, pending, size, n);
                size += n;
                offset += n;
                length -= n;
            }
        }

        private void seal() {
            if (size > 0) {
                synchronized (ready) {
                    ready.add(ByteBuffer.wrap(pending, 0, size));
                    held += size;
                }
                end += size;
                pending = new byte[CHUNK];
                size = 0;
            }
        }

        /** Ends the file's content here (a journal drives the sink from now on); returns its length then. */
        long mark() throws IOException {
            journaled = true;
            writer.flush();
            seal();
            return end;
        }

        /** Writes the chunks sealed so far, in order. */
        private void drain() throws IOException {
            synchronized (drain) {
                while (true) {
                    ByteBuffer chunk;
                    synchronized (ready) {
                        chunk = ready.poll();
                    }
                    if (chunk == null) {
                        return;
                    }
                    int length = chunk.remaining();
                    while (chunk.hasRemaining()) {
                        channel.write(chunk);
                    }
                    synchronized (ready) {
                        held -= length;
                    }
                }
            }
        }

        /** Writes what {@link #mark} ended and makes it durable. */
        void force() throws IOException {
            drain();
            if (channel instanceof FileChannel file) {
                file.force(false);
            }
        }

        @Override
        public void close() throws IOException {
            if (channel != null) {
                writer.flush();
                seal();
                drain();
                channel.close();
                channel = null;
            }
        }
    }
}
